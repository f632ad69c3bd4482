/**
 * Reports the dependencies the API uses. Throws when one it cannot work without (the database)
 * does not answer; dependencies it can serve without (Redis: rate limits fail open) are reported.
 */
export abstract class ReadinessProbe {
  abstract check(): Promise<Readiness>;
}

export interface Readiness {
  checks: Record<string, 'ok' | 'unavailable'>;
  /**
   * Whole days of history made ahead of the clock (events written after them have no day to go
   * to); null when none is made. Reported, not a reason to be unready: reads still work.
   */
  historyDaysAhead: number | null;
}
