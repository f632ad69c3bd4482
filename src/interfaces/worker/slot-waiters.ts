import type { AttemptSlot } from './attempt-slot';

/** An attempt waiting for a slot of InFlightLimits. */
export interface SlotWaiter {
  readonly arrival: number;
  readonly tenantId?: string;
  readonly endpoint?: string;
  readonly deadline: number;
  readonly resolve: (release: AttemptSlot | null) => void;
}

interface WaitQueue {
  items: SlotWaiter[];
  /** Where the queue starts: granting its first waiter moves nobody else. */
  head: number;
}

/**
 * The attempts waiting for a slot, in arrival order per tenant and endpoint: those of one key fit
 * or not together, so a release checks each key once instead of each waiter (a drain keeps a few
 * hundred waiting on one key). A waiter not granted by its deadline is handed back (null). One
 * timer serves every deadline, set for the earliest: nearly all waiters are granted long before
 * theirs, and a timer each was made and cleared for every one of them.
 */
export class SlotWaiters {
  private readonly queues = new Map<string, WaitQueue>();
  private count = 0;
  private arrivals = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Number.POSITIVE_INFINITY;

  /** Waits up to `waitMs` to be granted a slot by takeFirst's caller; null when the wait ends. */
  wait(tenantId: string | undefined, endpoint: string | undefined, waitMs: number): Promise<AttemptSlot | null> {
    return new Promise((resolve) => {
      const key = `${tenantId ?? ''}\u0000${endpoint ?? ''}`;
      const deadline = Date.now() + waitMs;
      const waiter: SlotWaiter = { arrival: this.arrivals++, tenantId, endpoint, deadline, resolve };
      const queue = this.queues.get(key);
      if (queue) queue.items.push(waiter);
      else this.queues.set(key, { items: [waiter], head: 0 });
      this.count++;
      this.expireBy(deadline);
    });
  }

  /** The longest-waiting of the keys' first waiters that `fits`, out of its queue; null if none. */
  takeFirst(fits: (tenantId: string | undefined, endpoint: string | undefined) => boolean): SlotWaiter | null {
    if (this.count === 0) return null;
    let nextKey: string | null = null;
    let next: WaitQueue | null = null;
    for (const [key, queue] of this.queues) {
      const first = queue.items[queue.head];
      if ((next === null || first.arrival < next.items[next.head].arrival) && fits(first.tenantId, first.endpoint)) {
        nextKey = key;
        next = queue;
      }
    }
    if (next === null || nextKey === null) return null;
    const waiter = next.items[next.head++];
    this.count--;
    if (next.head === next.items.length) this.queues.delete(nextKey);
    else if (next.head >= 1024 && next.head * 2 >= next.items.length) {
      next.items = next.items.slice(next.head);
      next.head = 0;
    }
    if (this.count === 0) this.stopTimer();
    return waiter;
  }

  /** The timer is due by `deadline` at the latest. */
  private expireBy(deadline: number): void {
    if (this.timer !== null && this.timerAt <= deadline) return;
    this.stopTimer();
    this.timerAt = deadline;
    this.timer = setTimeout(() => this.expire(), Math.max(1, deadline - Date.now()));
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** Waiters past their deadline are handed back; the timer is set for the next deadline. */
  private expire(): void {
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let nextDeadline = Number.POSITIVE_INFINITY;
    for (const [key, queue] of this.queues) {
      const kept: SlotWaiter[] = [];
      for (let i = queue.head; i < queue.items.length; i++) {
        const waiter = queue.items[i];
        if (waiter.deadline > now) {
          kept.push(waiter);
          nextDeadline = Math.min(nextDeadline, waiter.deadline);
        } else {
          this.count--;
          waiter.resolve(null);
        }
      }
      if (kept.length === 0) this.queues.delete(key);
      else this.queues.set(key, { items: kept, head: 0 });
    }
    if (nextDeadline !== Number.POSITIVE_INFINITY) this.expireBy(nextDeadline);
  }
}
