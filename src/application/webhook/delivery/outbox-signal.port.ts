/** Tells the relay that events were committed, so it need not wait for its next poll. */
export abstract class OutboxSignal {
  /** Calls `onSignal` (possibly coalesced) after outbox writes commit; resolves once listening. */
  abstract listen(onSignal: () => void): Promise<void>;
  abstract close(): Promise<void>;
}
