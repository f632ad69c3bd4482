import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryRequests, ManualDelivery } from '../../../application/webhook/subscriptions/delivery-requests.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { TestDelivery } from '../../../domain/webhook/test-delivery';
import { outboxInsert, outboxParams, recordedEvents, writeAggregates, writeForRelay } from '../outbox/outbox.writer';
import { requireTransaction, sqlRows } from '../connection/sql-statement';

/** A manual delivery row: `manual_id` is its own id; the relay hands it to the queue (enqueued_at NULL). */
const INSERT_MANUAL = `INSERT INTO webhook_deliveries
  (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, manual_id, redelivery_of)`;

/** Delivery `d` has a redelivery in one of `statuses`. */
const redeliveryIn = (...statuses: string[]) =>
  `EXISTS (SELECT 1 FROM webhook_deliveries m WHERE m.redelivery_of = d.id AND m.status IN (${statuses.map((s) => `'${s}'`).join(', ')}))`;
/** A redelivery of it waits or is being made, or (recovery leaves those alone too) one has succeeded. */
const REDELIVERY_WAITING = redeliveryIn('pending', 'sending');
const REDELIVERY_WAITING_OR_DONE = redeliveryIn('pending', 'sending', 'delivered');

/**
 * Customers' delivery requests in PostgreSQL, in the caller's unit of work, which wakes the relay
 * after its commit; the relay hands the new rows to the queue (the API holds no queue connection).
 *
 * Races: a redelivery locks the delivery it sends again (FOR UPDATE) and only then, in a new
 * statement that sees what committed meanwhile, looks for a waiting redelivery; so of two at once
 * one is queued and the other answered 409. A recovery locks every delivery it will redeliver the
 * same way, so it and single redeliveries take turns per delivery.
 */
@Injectable()
export class SqlDeliveryRequests extends DeliveryRequests {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async redeliver(input: Parameters<DeliveryRequests['redeliver']>[0]): Promise<ManualDelivery | 'not-found' | 'in-flight' | 'no-room' | { notReceivable: string }> {
    if ((await this.room(input.tenantId, input.pendingMax)) === 0) return 'no-room';
    const [given] = await sqlRows<{ origin: string }>(
      this.em,
      'SELECT coalesce(redelivery_of, id) AS origin FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2 AND tenant_id = $3',
      [input.deliveryId, input.subscriptionId, input.tenantId],
    );
    if (!given) return 'not-found';
    // The original may be gone (retention) while its redelivery is still kept: that is sent again.
    const origin = (await this.lock(given.origin, input.now)) ?? (await this.lock(input.deliveryId, input.now));
    if (!origin) return 'not-found';
    if (input.receivable && !input.receivable.includes(origin.event_type)) return { notReceivable: origin.event_type };
    if (origin.busy) return 'in-flight';
    const [waiting] = await sqlRows(this.em, `SELECT 1 FROM webhook_deliveries d WHERE d.id = $1 AND ${REDELIVERY_WAITING}`, [origin.id]);
    if (waiting) return 'in-flight';
    const id = newTypeId('whdlv', input.now.getTime());
    await writeForRelay(this.em, `${INSERT_MANUAL} VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6, $6, $1, $7)`, [
      id, input.tenantId, input.subscriptionId, origin.event_id, origin.event_type, input.now, origin.id,
    ]);
    return { deliveryId: id, eventId: origin.event_id, redeliveryOf: origin.id };
  }

  /**
   * The delivery, locked; busy while one of its attempts holds a live lease, while its first
   * attempt is due and not yet recorded (the relay may have handed it to a worker that sends it
   * without a lease: DirectFirstAttempt), or when it is a manual one still to be made.
   */
  private async lock(id: string, now: Date): Promise<{ id: string; event_id: string; event_type: string; busy: boolean } | undefined> {
    const rows = await sqlRows<{ id: string; event_id: string; event_type: string; busy: boolean }>(
      this.em,
      `SELECT id, event_id, event_type, status IN ('pending', 'sending')
         AND (manual_id IS NOT NULL OR coalesce(locked_until > $2, false) OR (attempt_count = 0 AND next_attempt_at IS NOT NULL)) AS busy
       FROM webhook_deliveries WHERE id = $1 FOR UPDATE`,
      [id, now],
    );
    return rows[0];
  }

  async recover(input: Parameters<DeliveryRequests['recover']>[0]): Promise<{ queued: number; hasMore: boolean }> {
    const limit = Math.min(input.limit, await this.room(input.tenantId, input.pendingMax));
    // Through webhook_deliveries_recoverable_idx: its predicate is repeated here word for word.
    const candidates = await sqlRows<{ id: string }>(
      this.em,
      `SELECT d.id FROM webhook_deliveries d
       WHERE d.subscription_id = $1 AND d.created_at >= $2
         AND d.manual_id IS NULL AND (d.status = 'failed' OR (d.status IN ('pending', 'sending') AND d.attempt_count > 0))
         AND d.tenant_id = $3 AND (d.locked_until IS NULL OR d.locked_until <= $4)
         AND NOT ${REDELIVERY_WAITING_OR_DONE}
         AND ($6::text[] IS NULL OR d.event_type = ANY($6::text[]))
       ORDER BY d.created_at, d.id LIMIT $5 FOR UPDATE OF d`,
      [input.subscriptionId, input.since, input.tenantId, input.now, limit + 1, input.receivable ?? null],
    );
    const taken = candidates.slice(0, limit).map((row) => row.id);
    if (taken.length === 0) return { queued: 0, hasMore: candidates.length > 0 };
    // Checked again now that they are locked: a redelivery may have committed in between.
    const inserted = await writeForRelay(
      this.em,
      `${INSERT_MANUAL}
       SELECT n.id, d.tenant_id, d.subscription_id, d.event_id, d.event_type, 'pending', 0, $3, $3, $3, n.id, d.id
       FROM unnest($1::text[], $2::text[]) AS n(id, origin) JOIN webhook_deliveries d ON d.id = n.origin
       WHERE NOT ${REDELIVERY_WAITING_OR_DONE}
       RETURNING id`,
      [taken.map(() => newTypeId('whdlv', input.now.getTime())), taken, input.now],
    );
    return { queued: inserted.length, hasMore: candidates.length > limit };
  }

  async addTest(delivery: TestDelivery, pendingMax: number): Promise<'added' | 'no-room'> {
    if ((await this.room(delivery.tenantId, pendingMax)) === 0) return 'no-room';
    // The event in the log as relayed already: the relay fans events out to subscriptions, this
    // one has its only delivery here, written by the same statement.
    await writeAggregates(
      this.em,
      [delivery],
      `WITH event AS (${outboxInsert(5, { relayed: true })} RETURNING id, type)
       ${INSERT_MANUAL} SELECT $1, $2, $3, event.id, event.type, 'pending', 0, $4, $4, $4, $1, NULL FROM event`,
      [delivery.id, delivery.tenantId, delivery.subscriptionId, delivery.createdAt, ...outboxParams(recordedEvents(delivery))],
    );
    return 'added';
  }

  /**
   * How many more manual deliveries the tenant may queue now: `pendingMax` less those waiting to
   * be sent. The tenant's manual requests take turns on a transaction-level advisory lock from
   * here to their commit, so two at once cannot both fill the last of the room.
   */
  private async room(tenantId: string, pendingMax: number): Promise<number> {
    requireTransaction(this.em, 'a manual delivery request');
    await sqlRows(this.em, `SELECT pg_advisory_xact_lock(hashtextextended('manual-deliveries:' || $1, 0))`, [tenantId]);
    const [waiting] = await sqlRows<{ n: number }>(
      this.em,
      // Through webhook_deliveries_manual_waiting_idx: its predicate is repeated here word for word.
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries
         WHERE tenant_id = $1 AND manual_id IS NOT NULL AND status IN ('pending', 'sending') LIMIT $2) w`,
      [tenantId, pendingMax],
    );
    return Math.max(0, pendingMax - waiting.n);
  }
}
