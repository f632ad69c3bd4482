import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { DeliveryTurns, PageTurnOwner } from '../../../application/webhook/delivery/delivery-turns.port';
import { endpointKey } from './endpoint-key';
import { sqlRows } from '../connection/sql-statement';
import { LOCK_TURN_SQL, PASS_TURN_SQL, STALLED_TURNS_SQL } from './delivery-turns.sql';

/** Ordered deliveries' turns in PostgreSQL (delivery-turns.sql.ts), each passed on in a short transaction of its own. */
@Injectable()
export class SqlDeliveryTurns extends DeliveryTurns {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async passOn(turn: PageTurnOwner, now: Date): Promise<DeliveryJob | null> {
    const rows = await this.orm.em.fork().transactional(async (em) => {
      await sqlRows(em, LOCK_TURN_SQL, [turn.subscriptionId, turn.orderKey]);
      return sqlRows<{ id: string; tenant_id: string; attempt_count: number; url: string }>(em, PASS_TURN_SQL, [turn.subscriptionId, turn.orderKey, now]);
    });
    const [next] = rows;
    if (!next) return null;
    return { deliveryId: next.id, attempt: next.attempt_count + 1, delayMs: 0, tenantId: next.tenant_id, endpoint: endpointKey(next.tenant_id, next.url), requeue: true };
  }

  async passStalled(now: Date, limit: number): Promise<DeliveryJob[]> {
    const stalled = await sqlRows<{ tenant_id: string; subscription_id: string; order_key: string }>(this.orm.em, STALLED_TURNS_SQL, [limit]);
    const jobs: DeliveryJob[] = [];
    for (const turn of stalled) {
      const job = await this.passOn({ tenantId: turn.tenant_id, subscriptionId: turn.subscription_id, orderKey: turn.order_key }, now);
      if (job) jobs.push(job);
    }
    return jobs;
  }
}
