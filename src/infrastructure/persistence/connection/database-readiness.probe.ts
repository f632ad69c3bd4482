import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable, Optional } from '@nestjs/common';
import { Readiness, ReadinessProbe } from '../../../application/health/readiness-probe.port';
import { HistoryDays } from '../../../application/webhook/history/history-days.port';
import { daysAheadOf } from '../../../application/webhook/history/make-history-days-ahead.use-case';
import { RateLimiter } from '../../../application/rate-limit/rate-limiter.port';
import { RedisRateLimiter } from '../../rate-limit/redis-rate-limiter';
import { sqlRows } from './sql-statement';


/** How long one answer serves: /health/ready is public, so its cost must not grow with its callers. */
export const READINESS_FRESH_MS = 1000;

/**
 * Probes the database (and Redis, when used) at most once per second per process, whatever the
 * request rate: callers within a second of the last probe get its answer (or its failure), and
 * callers while a probe runs share it.
 */
@Injectable()
export class DatabaseReadinessProbe extends ReadinessProbe {
  /** Probes actually sent to the database, for tests and metrics. */
  databaseProbes = 0;
  private last?: { at: number; outcome: Promise<Readiness> };

  constructor(
    private readonly orm: MikroORM,
    private readonly history: HistoryDays,
    @Optional() private readonly limiter?: RateLimiter,
  ) {
    super();
  }

  check(): Promise<Readiness> {
    const now = Date.now();
    if (!this.last || now - this.last.at >= READINESS_FRESH_MS) {
      const outcome = this.probe();
      // A failure is kept for the same second too, but must not count as unhandled while kept.
      outcome.catch(() => {});
      this.last = { at: now, outcome };
    }
    return this.last.outcome;
  }

  private async probe(): Promise<Readiness> {
    this.databaseProbes++;
    await sqlRows(this.orm.em.fork(), 'SELECT 1');
    const historyDaysAhead = await daysAheadOf(this.history, Date.now());
    if (!(this.limiter instanceof RedisRateLimiter)) return { checks: { database: 'ok' }, historyDaysAhead };
    const redis = await this.limiter.redis.ping().then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
    return { checks: { database: 'ok', redis }, historyDaysAhead };
  }
}
