/**
 * Makes and hashes portal tokens (a link's and a session's); a port because randomness and
 * hashing are the platform's. Tokens are kept as hashes only, as API keys are.
 */
export abstract class PortalSecrets {
  /** A new random token of a kind, and its hash. */
  abstract generate(kind: 'link' | 'session'): { token: string; hash: string };
  /** The hash kept for `token`; null when it cannot be a token of that kind (wrong shape). */
  abstract hash(kind: 'link' | 'session', token: string): string | null;
}
