import type { OnModuleDestroy } from '@nestjs/common';
import { EventFeedWaits, FeedWait, TooManyWaitsError } from '../../../application/event/event-feed-waits.port';
import type { Logger } from '../../../application/shared/logger.port';
import { ListenerHealth, PgListener } from '../connection/pg-listener';
import { EVENT_FEED_CHANNEL } from './event-feed.sql';

/** While the listener is away, a parked read looks again this often instead of waiting for a signal. */
const POLL_WHILE_DEAF_MS = 1000;

export interface FeedWaitBounds {
  perTenant: number;
  perProcess: number;
}

/** One parked read: a signal latched until it is taken, and the pending `next` to end. */
class Waiter {
  signalled = false;
  private wake?: (woken: boolean) => void;

  next(ms: number, deaf: boolean, signal?: AbortSignal): Promise<boolean> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve(true);
    }
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const end = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        this.wake = undefined;
        resolve(woken);
      };
      const aborted = () => end(false);
      // Deaf (no LISTEN): look again within a second; else sleep to the deadline unless woken.
      const timer = setTimeout(() => end(deaf && ms > POLL_WHILE_DEAF_MS), deaf ? Math.min(ms, POLL_WHILE_DEAF_MS) : ms);
      signal?.addEventListener('abort', aborted, { once: true });
      this.wake = (woken) => {
        this.signalled = false;
        end(woken);
      };
    });
  }

  signal(): void {
    if (this.wake) this.wake(true);
    else this.signalled = true;
  }

  stop(): void {
    this.wake?.(false);
  }
}

/**
 * The API process's parked reads of the event feed, woken by the relay's NOTIFY on
 * EVENT_FEED_CHANNEL (one LISTEN connection per process, opened at the first wait). Bounded per
 * tenant and per process (TooManyWaitsError: 429). At shutdown every parked read is ended at once,
 * so that it answers what it has before the server closes.
 */
export class PgEventFeedWaits extends EventFeedWaits implements OnModuleDestroy {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private total = 0;
  private stopped = false;
  private readonly listener: PgListener;

  constructor(
    databaseUrl: string,
    logger: Logger,
    private readonly bounds: FeedWaitBounds,
    health?: ListenerHealth,
  ) {
    super();
    // Every change of the listener wakes every parked read: lost, they go on polling (each read
    // decides at its next wait); back, they read what was committed while nothing could be told.
    this.listener = new PgListener(databaseUrl, EVENT_FEED_CHANNEL, logger, (payload) => this.moved(payload), () => this.moved('*'), health);
  }

  async enter(tenantId: string): Promise<FeedWait> {
    const ofTenant = this.waiting.get(tenantId) ?? new Set<Waiter>();
    if (ofTenant.size >= this.bounds.perTenant) throw new TooManyWaitsError('tenant', this.bounds.perTenant);
    if (this.total >= this.bounds.perProcess) throw new TooManyWaitsError('process', this.bounds.perProcess);
    // The slot is taken before the first await, so the bounds hold however many arrive at once.
    const waiter = new Waiter();
    ofTenant.add(waiter);
    this.waiting.set(tenantId, ofTenant);
    this.total += 1;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      waiter.stop();
      ofTenant.delete(waiter);
      if (ofTenant.size === 0 && this.waiting.get(tenantId) === ofTenant) this.waiting.delete(tenantId);
      this.total -= 1;
    };
    if (!this.stopped) await this.listener.start();
    return {
      next: (ms, signal) => (this.stopped ? Promise.resolve(false) : waiter.next(ms, !this.listener.live, signal)),
      leave,
    };
  }

  /** Whether notifications can reach the parked reads now (for tests). */
  get listening(): boolean {
    return this.listener.live;
  }

  /** Parked reads now (for tests and the bench's memory figure). */
  get parked(): number {
    return this.total;
  }

  private moved(payload: string): void {
    if (payload === '*') {
      for (const waiters of this.waiting.values()) for (const waiter of waiters) waiter.signal();
      return;
    }
    for (const tenantId of payload.split(',')) for (const waiter of this.waiting.get(tenantId) ?? []) waiter.signal();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const waiters of this.waiting.values()) for (const waiter of waiters) waiter.stop();
    await this.listener.close();
  }
}
