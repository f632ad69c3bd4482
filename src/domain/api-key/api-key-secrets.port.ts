/** Makes and hashes key material; a port because randomness and hashing are the platform's. */
export abstract class ApiKeySecrets {
  /** A new random key with its hash and display prefix. */
  abstract generate(): { plainKey: string; keyHash: string; displayPrefix: string };
  /** The hash stored for `plainKey`; null when it cannot be a key of ours (wrong shape). */
  abstract hash(plainKey: string): string | null;
}
