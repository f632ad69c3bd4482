/**
 * Early refusal of callback URLs whose host is a literal address deliveries may never reach
 * (loopback, private…), so a customer learns at once. Host names are checked again on the address
 * actually connected to, at every delivery (the real guard).
 */
export abstract class TargetPolicy {
  /** Throws InvalidValueError on `url` when the URL names a forbidden address. */
  abstract check(url: string): void;
}
