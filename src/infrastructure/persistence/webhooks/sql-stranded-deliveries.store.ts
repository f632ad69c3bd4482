import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { StrandedDeliveries } from '../../../application/webhook/sweeper/stranded-deliveries.port';
import { endpointKey } from './endpoint-key';
import { sqlQuery } from '../connection/sql-statement';
import { eventIdCeiling } from '../history/history-tables';
import type { StoredColumns } from '../typed/statement';
import { STRANDED_SQL } from './stranded-deliveries.sql';

/** Deliveries due with no live job, for the sweeper (SweepDeliveries). */
@Injectable()
export class SqlStrandedDeliveries extends StrandedDeliveries {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async findStranded(now: Date, limit: number, graceMs: number, firstGraceMs = graceMs, queuedBefore?: Date): Promise<DeliveryJob[]> {
    const before = new Date(now.getTime() - graceMs);
    const firstBefore = new Date(now.getTime() - firstGraceMs);
    const { rows } = await sqlQuery<StoredColumns<'webhook_deliveries', 'id' | 'event_id' | 'attempt_count' | 'tenant_id'> & StoredColumns<'webhook_subscriptions', 'url'>>(this.orm.em, STRANDED_SQL, [
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
