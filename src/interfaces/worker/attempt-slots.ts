/**
 * At most `size` attempts run at once in this process, whatever jobs carry them: a batch job
 * holds many attempts, so BullMQ's job concurrency alone no longer bounds the sockets, database
 * connections and memory in use. Waiters are served first come, first served.
 */
export class AttemptSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
