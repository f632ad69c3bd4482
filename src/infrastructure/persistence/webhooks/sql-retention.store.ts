import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RetentionStore } from '../../../application/webhook/delivery/retention-store.port';
import { sqlQuery } from '../connection/sql-statement';

/**
 * Each batch is one statement (its own short transaction), through the indexes of
 * Migration20261125030000_webhook_retention. SKIP LOCKED: a delivery a worker holds right now is
 * left for the next run.
 */
@Injectable()
export class SqlRetentionStore extends RetentionStore {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async purgeDeliveries(before: Date, limit: number): Promise<number> {
    // The attempts go in the same statement: the foreign key is checked at its end.
    const { rowCount } = await sqlQuery(
      this.orm.em,
      `WITH old AS (
         SELECT id FROM webhook_deliveries WHERE finished_at < $1 ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED),
       attempts AS (DELETE FROM webhook_delivery_attempts a USING old WHERE a.delivery_id = old.id)
       DELETE FROM webhook_deliveries d USING old WHERE d.id = old.id`,
      [before, limit],
    );
    return rowCount;
  }

  async purgeEvents(before: Date, limit: number): Promise<number> {
    const { rowCount } = await sqlQuery(
      this.orm.em,
      `DELETE FROM outbox_events WHERE id IN (
         SELECT o.id FROM outbox_events o
         WHERE o.published_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.id)
         ORDER BY o.published_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
    return rowCount;
  }
}
