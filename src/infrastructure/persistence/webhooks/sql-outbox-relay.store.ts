import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob, OutboxRelayStore } from '../../../application/webhook/delivery.ports';
import { newTypeId } from '../../../domain/shared/type-id';

/**
 * Claims committed outbox events with FOR UPDATE SKIP LOCKED (so any number of relays can run),
 * makes one delivery per matching active subscription, and marks the events published, all in
 * one transaction. `UNIQUE (event_id, subscription_id)` keeps a delivery from being made twice.
 */
@Injectable()
export class SqlOutboxRelayStore extends OutboxRelayStore {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  fanOut(limit: number, now: Date): Promise<{ events: number; deliveries: DeliveryJob[] }> {
    return this.orm.em.fork().transactional(async (em) => {
      const events = await em.execute<{ id: string; tenant_id: string; type: string }[]>(
        'SELECT id, tenant_id, type FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED',
        [limit],
      );
      if (events.length === 0) return { events: 0, deliveries: [] };
      const tenants = [...new Set(events.map((e) => e.tenant_id))];
      const subscriptions = await em.execute<{ id: string; tenant_id: string; events: string[] }[]>(
        `SELECT id, tenant_id, events FROM webhook_subscriptions
         WHERE tenant_id IN (${tenants.map(() => '?').join(', ')}) AND active AND deleted_at IS NULL`,
        tenants,
      );
      const rows = events.flatMap((event) =>
        subscriptions
          .filter((s) => s.tenant_id === event.tenant_id && s.events.includes(event.type))
          .map((s) => [newTypeId('whdlv', now.getTime()), event.tenant_id, s.id, event.id, event.type, now, now, now]),
      );
      let created: { id: string }[] = [];
      if (rows.length > 0) {
        created = await em.execute<{ id: string }[]>(
          `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
           VALUES ${rows.map(() => "(?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)").join(', ')}
           ON CONFLICT (event_id, subscription_id) DO NOTHING RETURNING id`,
          rows.flat(),
        );
      }
      await em.execute(`UPDATE outbox_events SET published_at = ? WHERE id IN (${events.map(() => '?').join(', ')})`, [now, ...events.map((e) => e.id)], 'run');
      return { events: events.length, deliveries: created.map((row) => ({ deliveryId: row.id, attempt: 1, delayMs: 0 })) };
    });
  }
}
