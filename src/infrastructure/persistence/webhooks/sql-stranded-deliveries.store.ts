import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { StrandedDeliveries } from '../../../application/webhook/delivery/stranded-deliveries.port';
import { endpointKey } from './endpoint-key';
import { sqlQuery } from '../connection/sql-statement';
import { eventIdCeiling } from '../history/history-tables';

/**
 * Deliveries due by $1 with no live job ($2 now, $3 at most, $4 the first attempt's grace) of
 * events made by now ($5, eventIdCeiling): the days after it hold none, and are not planned. Only
 * those handed to the queue before $6 (a first attempt when the relay made it): the queue's oldest
 * waiting job was added then, and one handed to it since may still wait behind it. The
 * days before it are read through their partial index of unfinished deliveries, empty (one page)
 * for a day whose deliveries have all ended. SKIP LOCKED: two workers' sweeps share the stranded
 * rows instead of both taking each.
 */
export const STRANDED_SQL = `WITH stranded AS (
    SELECT id, event_id FROM webhook_deliveries
    WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $2)
      AND (enqueued_at IS NULL OR enqueued_at <= $1)
      AND (attempt_count > 0 OR manual_id IS NOT NULL OR next_attempt_at <= $4)
      AND coalesce(enqueued_at, created_at) < $6
      AND event_id < $5
    ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
  UPDATE webhook_deliveries d SET enqueued_at = $2
  FROM stranded, webhook_subscriptions s
  WHERE d.id = stranded.id AND d.event_id = stranded.event_id AND d.event_id < $5 AND s.id = d.subscription_id
  RETURNING d.id, d.event_id, d.attempt_count, d.tenant_id, s.url`;

/** Deliveries due with no live job, for the sweeper (SweepDeliveries). */
@Injectable()
export class SqlStrandedDeliveries extends StrandedDeliveries {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async findStranded(now: Date, limit: number, graceMs: number, firstGraceMs = graceMs, queuedBefore?: Date): Promise<DeliveryJob[]> {
    const before = new Date(now.getTime() - graceMs);
    const firstBefore = new Date(now.getTime() - firstGraceMs);
    const { rows } = await sqlQuery<{ id: string; event_id: string; attempt_count: number; tenant_id: string; url: string }>(this.orm.em, STRANDED_SQL, [
      before,
      now,
      limit,
      firstBefore,
      eventIdCeiling(now.getTime()),
      // No job waits: no bound beyond the grace (the condition holds for every row due by $1).
      queuedBefore ?? now,
    ]);
    return rows.map((row) => ({ deliveryId: row.id, eventId: row.event_id, attempt: row.attempt_count + 1, delayMs: 0, tenantId: row.tenant_id, endpoint: endpointKey(row.tenant_id, row.url) }));
  }
}
