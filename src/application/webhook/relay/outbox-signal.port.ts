/**
 * Tells the relay that events were committed, so it need not wait for its next poll: with the
 * lowest id among them when the writers said (the relay reads the outbox from there), else null
 * (the relay reads all of it).
 */
export abstract class OutboxSignal {
  /** Calls `onSignal` (possibly coalesced) after outbox writes commit; resolves once listening. */
  abstract listen(onSignal: (from: string | null) => void): Promise<void>;
  abstract close(): Promise<void>;
}

/**
 * The lower of two places to read the outbox from, as signals name them: an event id, null (the
 * whole outbox, which is lowest) or undefined (none named yet, which is highest).
 */
export function lowestFrom(a: string | null, b: string | null | undefined): string | null {
  if (b === undefined) return a;
  return a === null || b === null ? null : a < b ? a : b;
}
