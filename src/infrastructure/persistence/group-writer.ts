/**
 * Group commit in the process: items handed in while a write is in flight go together in the
 * next one, one statement and one commit for all of them. With no write in flight an item goes
 * out at the next turn of the event loop, with whatever else came in that turn. At most
 * `maxInFlight` writes run at once and each takes at most `maxBatch` items. Each caller's promise
 * settles with its write: a failed write fails every item in it, and none of it is applied.
 */
export class GroupWriter<T> {
  private queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: { maxInFlight: number; maxBatch: number },
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      this.write(batch.map((entry) => entry.item)).then(
        () => batch.forEach((entry) => entry.resolve()),
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      ).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }
}
