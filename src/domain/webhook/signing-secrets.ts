// The signing secrets of a subscription: rotation keeps the old one valid for an overlap so that
// receivers switch without refusing a delivery in between (docs/webhooks.md, Signatures).

/** A signing secret replaced by a rotation, still signed with until `expiresAt`. */
export interface PreviousSigningSecret {
  secret: string;
  expiresAt: Date;
}

/** How long a rotated-out secret may stay valid: at most 7 days (the default is one day). */
export const MAX_SECRET_OVERLAP_SECONDS = 604_800;
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;
/** Old secrets kept at most: rotating more often than that drops the oldest still-valid one. */
export const MAX_PREVIOUS_SECRETS = 5;

/**
 * The old secrets after a rotation at `now` whose old secret stays valid for `overlapSeconds`:
 * 0 is the answer to a leak, every old secret (those of earlier rotations too) stops at once.
 */
export function afterRotation(current: string, previous: readonly PreviousSigningSecret[], overlapSeconds: number, now: Date): PreviousSigningSecret[] {
  const expiresAt = new Date(now.getTime() + overlapSeconds * 1000);
  const kept = overlapSeconds === 0 ? [] : [{ secret: current, expiresAt }, ...previous].slice(0, MAX_PREVIOUS_SECRETS);
  return unexpired(kept, now);
}

/** An old secret that no longer signs is not kept: every write of the subscription drops it. */
export function unexpired(previous: readonly PreviousSigningSecret[], now: Date): PreviousSigningSecret[] {
  return previous.filter((old) => old.expiresAt > now);
}

/** The old secrets a delivery sent at `at` is also signed with, newest first (the current one is signed with always). */
export function secretsStillValid(previous: readonly PreviousSigningSecret[], at: Date): string[] {
  return previous.filter((old) => old.expiresAt > at).map((old) => old.secret);
}
