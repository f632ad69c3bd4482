import type { OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock.port';

/** How often the offset to the database's clock is measured again. */
const MEASURE_EVERY_MS = 60_000;

/**
 * The service's one clock: this host's time moved by its measured offset to PostgreSQL's clock
 * (decisions.md 181). What one process writes and another compares (the relay's read of a first
 * attempt against DIRECT_WINDOW_MS in any worker, a lease, a due time) is then on one clock
 * whichever hosts they run on. The offset is measured at start and every minute from one
 * `clock_timestamp()` round trip, taken at its midpoint; an offset within that round trip's
 * uncertainty is no offset (the same host, or clocks in step). A failed measure keeps the last.
 */
export class DatabaseClock extends Clock implements OnModuleDestroy {
  private offsetMs = 0;
  private timer?: NodeJS.Timeout;

  /** `databaseNowMs`: the database's clock, in ms since the epoch (one statement). */
  constructor(private readonly databaseNowMs: () => Promise<number>) {
    super();
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Measures once, then every minute until destroyed (the timer keeps no process alive). */
  async start(): Promise<void> {
    await this.measure();
    this.timer = setInterval(() => void this.measure(), MEASURE_EVERY_MS);
    this.timer.unref();
  }

  async measure(): Promise<void> {
    try {
      const sent = Date.now();
      const database = await this.databaseNowMs();
      const received = Date.now();
      const offset = database - (sent + received) / 2;
      this.offsetMs = Math.abs(offset) <= (received - sent) / 2 + 1 ? 0 : Math.round(offset);
    } catch {
      // The database away: the last offset holds (clocks drift by milliseconds a day).
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
