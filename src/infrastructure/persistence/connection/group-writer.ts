/**
 * Group commit in the process: items handed in while a write is in flight go together in the
 * next one, one statement and one commit for all of them. With no write in flight an item goes
 * out at the next turn of the event loop, with whatever else came in that turn. At most
 * `maxInFlight` writes run at once and each takes at most `maxBatch` items. Each caller's promise
 * settles with its write: a failed write fails every item in it, and none of it is applied. A
 * write may answer each item (`R`): it returns one result per item, in the items' order.
 */
export class GroupWriter<T, R = void> {
  private queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[] | void>,
    private readonly options: { maxInFlight: number; maxBatch: number },
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
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
        (results) => batch.forEach((entry, i) => entry.resolve((results ? results[i] : undefined) as R)),
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      ).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }
}
