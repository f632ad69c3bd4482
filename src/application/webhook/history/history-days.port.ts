/**
 * The history (events, deliveries, attempts, page sessions) kept by day: each day a partition
 * made ahead of the clock and dropped whole past its retention (docs/decisions.md 147).
 */
export abstract class HistoryDays {
  /** Makes the days of history up to the one holding `until` that do not exist yet; returns their names. */
  abstract makeUntil(until: Date): Promise<string[]>;
  /**
   * Where the days made of webhook history end: the end of the last day every one of its tables
   * has (a write of an event after it has no day to go to). Null when a table has no day at all.
   */
  abstract madeThrough(): Promise<Date | null>;
  /**
   * Drops each day of webhook history (events with their deliveries and attempts) that ended
   * before `before`. A day with an event the relay has not published yet is kept whole. A day
   * holding deliveries not finished is kept for their tenants only: with `held`, every other
   * tenant's rows in it are deleted now, its unfinished deliveries are given up once the day
   * ended before `giveUpBefore` (each with an attempt in its log saying why), and it is kept
   * `noticeMs` longer so that its tenants can read that log. Returns the statements it ran, the
   * days it kept, and with `held` the rows it deleted and the deliveries it gave up.
   */
  abstract dropWebhookDaysBefore(before: Date, held?: HeldDaysRule): Promise<{ statements: string[]; kept: string[]; cleared?: number; givenUp?: number }>;
  /** Drops each day of page sessions that ended before `before`; returns the statements it ran. */
  abstract dropSessionDaysBefore(before: Date): Promise<string[]>;
}

/** How a day of webhook history past its retention is kept for the tenants whose deliveries hold it. */
export interface HeldDaysRule {
  now: Date;
  /** Days that ended before this have their unfinished deliveries given up. */
  giveUpBefore: Date;
  /** How long a day is kept after its deliveries were given up, for their tenants' delivery log. */
  noticeMs: number;
}
