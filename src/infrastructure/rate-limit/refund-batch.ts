/**
 * Refunds (a 304's count taken back, decisions.md 140) gathered per budget key and sent together:
 * one Redis round trip a tick for every 304 of that tick, instead of one each, so that a 304 costs
 * less than the 200 it replaces. `add` resolves once the batch it joined was sent, or failed: a
 * refund lost leaves the request counted, as it was.
 */
export class RefundBatch {
  private pending = new Map<string, number>();
  private sending?: Promise<void>;

  constructor(
    private readonly send: (refunds: [key: string, count: number][]) => Promise<void>,
    private readonly everyMs = 10,
  ) {}

  add(key: string): Promise<void> {
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.sending ??= new Promise<void>((resolve) => {
      // Unref'd: a refund waiting for its tick never keeps a process alive.
      setTimeout(() => {
        const refunds = [...this.pending];
        this.pending = new Map();
        this.sending = undefined;
        this.send(refunds).then(resolve, () => resolve());
      }, this.everyMs).unref();
    });
    return this.sending;
  }
}
