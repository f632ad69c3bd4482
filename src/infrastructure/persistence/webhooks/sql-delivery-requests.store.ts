import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryRequests, ManualDelivery } from '../../../application/webhook/subscriptions/delivery-requests.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { TestDelivery } from '../../../domain/webhook/test-delivery';
import { outboxParams, recordedEvents, writeAggregates, writeForRelay } from '../outbox/outbox.writer';
import { requireTransaction, sqlRows } from '../connection/sql-statement';
import type { StoredColumns } from '../typed/statement';
import {
  ADD_TEST, INSERT_RECOVERIES, INSERT_REDELIVERY, LOCK_DELIVERY, MANUAL_TURN, MANUAL_WAITING, ORIGIN_OF, RECOVERABLE, REDELIVERY_WAITS,
} from './delivery-requests.sql';

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
      ORIGIN_OF,
      [input.deliveryId, input.subscriptionId, input.tenantId],
    );
    if (!given) return 'not-found';
    // The original may be gone (retention) while its redelivery is still kept: that is sent again.
    const origin = (await this.lock(given.origin, input.now)) ?? (await this.lock(input.deliveryId, input.now));
    if (!origin) return 'not-found';
    if (input.receivable && !input.receivable.includes(origin.event_type)) return { notReceivable: origin.event_type };
    if (origin.busy) return 'in-flight';
    const [waiting] = await sqlRows(this.em, REDELIVERY_WAITS, [origin.id]);
    if (waiting) return 'in-flight';
    const id = newTypeId('whdlv', input.now.getTime());
    await writeForRelay(this.em, INSERT_REDELIVERY, [
      id, input.tenantId, input.subscriptionId, origin.event_id, origin.event_type, input.now, origin.id,
    ]);
    return { deliveryId: id, eventId: origin.event_id, redeliveryOf: origin.id };
  }

  /**
   * The delivery, locked; busy while one of its attempts holds a live lease, while its first
   * attempt is due and not yet recorded (the relay may have handed it to a worker that sends it
   * without a lease: DirectFirstAttempt), or when it is a manual one still to be made.
   */
  private async lock(id: string, now: Date) {
    const rows = await sqlRows<StoredColumns<'webhook_deliveries', 'id' | 'event_id' | 'event_type'> & { busy: boolean }>(this.em, LOCK_DELIVERY, [id, now]);
    return rows[0];
  }

  async recover(input: Parameters<DeliveryRequests['recover']>[0]): Promise<{ queued: number; hasMore: boolean }> {
    const limit = Math.min(input.limit, await this.room(input.tenantId, input.pendingMax));
    const candidates = await sqlRows<StoredColumns<'webhook_deliveries', 'id'>>(
      this.em,
      RECOVERABLE,
      [input.subscriptionId, input.since, input.tenantId, input.now, limit + 1, input.receivable ?? null],
    );
    const taken = candidates.slice(0, limit).map((row) => row.id);
    if (taken.length === 0) return { queued: 0, hasMore: candidates.length > 0 };
    // Checked again now that they are locked: a redelivery may have committed in between.
    const inserted = await writeForRelay(
      this.em,
      INSERT_RECOVERIES,
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
      ADD_TEST,
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
    await sqlRows(this.em, MANUAL_TURN, [tenantId]);
    const [waiting] = await sqlRows<{ n: number }>(this.em, MANUAL_WAITING, [tenantId, pendingMax]);
    return Math.max(0, pendingMax - waiting.n);
  }
}
