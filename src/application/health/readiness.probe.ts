/** Throws when a dependency the API needs does not answer; implemented by infrastructure. */
export abstract class ReadinessProbe {
  abstract check(): Promise<void>;
}
