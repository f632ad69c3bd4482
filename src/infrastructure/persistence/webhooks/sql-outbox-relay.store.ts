import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DeliveryJob, OutboxRelayStore } from '../../../application/webhook/delivery.ports';
import { newTypeId } from '../../../domain/shared/type-id';

/**
 * Claims committed outbox events with FOR UPDATE SKIP LOCKED (so any number of relays can run),
 * makes one delivery per matching active subscription, and marks the events published, all in
 * one transaction. `UNIQUE (event_id, subscription_id)` keeps a delivery from being made twice.
 * Named statements over array parameters: the same four statements, parsed once, whatever the batch.
 */
@Injectable()
export class SqlOutboxRelayStore extends OutboxRelayStore {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async fanOut(limit: number, now: Date): Promise<{ events: number; deliveries: DeliveryJob[] }> {
    const pool = (await this.orm.em.getConnection().getNativeClient()) as Pool;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: events } = await client.query<{ id: string; tenant_id: string; type: string }>({
        name: 'outbox-claim',
        text: 'SELECT id, tenant_id, type FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
        values: [limit],
      });
      if (events.length === 0) {
        await client.query('COMMIT');
        return { events: 0, deliveries: [] };
      }
      const { rows: subscriptions } = await client.query<{ id: string; tenant_id: string; events: string[] }>({
        name: 'outbox-subscriptions',
        text: 'SELECT id, tenant_id, events FROM webhook_subscriptions WHERE tenant_id = ANY($1::text[]) AND active AND deleted_at IS NULL',
        values: [[...new Set(events.map((e) => e.tenant_id))]],
      });
      const rows = events.flatMap((event) =>
        subscriptions
          .filter((s) => s.tenant_id === event.tenant_id && s.events.includes(event.type))
          .map((s) => ({ id: newTypeId('whdlv', now.getTime()), tenantId: event.tenant_id, subscriptionId: s.id, eventId: event.id, type: event.type })),
      );
      let created: { id: string }[] = [];
      if (rows.length > 0) {
        created = (
          await client.query<{ id: string }>({
            name: 'outbox-deliveries',
            text: `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
                   SELECT id, tenant_id, subscription_id, event_id, event_type, 'pending', 0, $6, $6, $6
                   FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(id, tenant_id, subscription_id, event_id, event_type)
                   ON CONFLICT (event_id, subscription_id) DO NOTHING RETURNING id`,
            values: [rows.map((r) => r.id), rows.map((r) => r.tenantId), rows.map((r) => r.subscriptionId), rows.map((r) => r.eventId), rows.map((r) => r.type), now],
          })
        ).rows;
      }
      await client.query({ name: 'outbox-published', text: 'UPDATE outbox_events SET published_at = $1 WHERE id = ANY($2::text[])', values: [now, events.map((e) => e.id)] });
      await client.query('COMMIT');
      return { events: events.length, deliveries: created.map((row) => ({ deliveryId: row.id, attempt: 1, delayMs: 0 })) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
