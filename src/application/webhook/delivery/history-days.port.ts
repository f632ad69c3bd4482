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
   * before `before`, but keeps a day that still holds a delivery not finished: it goes once that
   * delivery ends. Returns the statements it ran and the days it kept.
   */
  abstract dropWebhookDaysBefore(before: Date): Promise<{ statements: string[]; kept: string[] }>;
  /** Drops each day of page sessions that ended before `before`; returns the statements it ran. */
  abstract dropSessionDaysBefore(before: Date): Promise<string[]>;
}
