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
