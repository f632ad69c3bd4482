import { DELIVERY_STATUSES } from '../../../application/webhook/deliveries/webhook-delivery.view';
import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';
import { partitionedByDay } from './history-partitions';

export const WebhookDeliveryEntity = defineEntity({
  name: 'WebhookDeliveryRow',
  tableName: 'webhook_deliveries',
  partitionBy: partitionedByDay('webhook_deliveries', 'event_id', 'evt'),
  indexes: [
    // The delivery search (GET /v0/webhook_deliveries), newest first by id: the tenant's, one
    // subject's, and the ones not delivered by status (a small share, and the one a person looks
    // for). Delivered deliveries leave the last index when their record commits. Its predicate
    // lists the other statuses rather than `<> 'delivered'`: the claim's and the record's
    // `status NOT IN (…)` must not prove it, or their plans could leave the primary key for it
    // (delivery-attempts.sql.ts; test/integration/delivery-plans.test.ts). Every index here costs
    // the drain an entry per delivery and per record (decisions.md 187): one subscription's
    // deliveries are read from the tenant's, a tenant having few subscriptions.
    { name: 'webhook_deliveries_tenant_idx', properties: ['tenantId', 'id'] },
    { name: 'webhook_deliveries_subject_idx', where: 'subject_id IS NOT NULL', properties: ['tenantId', 'subjectId', 'id'] },
    {
      name: 'webhook_deliveries_undelivered_idx',
      where: 'status = ANY (ARRAY[\'pending\'::text, \'sending\'::text, \'waiting\'::text, \'failed\'::text, \'cancelled\'::text])',
      properties: ['tenantId', 'status', 'id'],
    },
    {
      name: 'webhook_deliveries_held_idx',
      where: '(status = ANY (ARRAY[\'pending\'::text, \'sending\'::text])) AND (next_attempt_at IS NULL) AND (manual_id IS NULL)',
      properties: ['subscriptionId', 'id'],
    },
    {
      name: 'webhook_deliveries_manual_waiting_idx',
      where: '(manual_id IS NOT NULL) AND (status = ANY (ARRAY[\'pending\'::text, \'sending\'::text]))',
      properties: ['tenantId'],
    },
    {
      name: 'webhook_deliveries_recoverable_idx',
      where: '(manual_id IS NULL) AND ((status = \'failed\'::text) OR ((status = ANY (ARRAY[\'pending\'::text, \'sending\'::text])) AND (attempt_count > 0)))',
      properties: ['subscriptionId', 'createdAt'],
    },
    {
      name: 'webhook_deliveries_redelivery_idx',
      where: 'redelivery_of IS NOT NULL',
      properties: ['redeliveryOf'],
    },
    {
      name: 'webhook_deliveries_requested_idx',
      where: '(manual_id IS NOT NULL) AND (enqueued_at IS NULL) AND (status = \'pending\'::text)',
      properties: ['id'],
    },
    {
      name: 'webhook_deliveries_turn_holders_idx',
      where: '(order_key IS NOT NULL) AND (status = ANY (ARRAY[\'pending\'::text, \'sending\'::text, \'waiting\'::text])) AND (status <> \'waiting\'::text)',
      properties: ['subscriptionId', 'orderKey'],
    },
    {
      name: 'webhook_deliveries_turns_idx',
      where: '(order_key IS NOT NULL) AND (status = \'waiting\'::text)',
      properties: ['subscriptionId', 'orderKey', 'orderSeq', 'id'],
    },
    {
      name: 'webhook_deliveries_unfinished_idx',
      where: 'status = ANY (ARRAY[\'pending\'::text, \'sending\'::text])',
      properties: ['nextAttemptAt'],
    },
  ],
  uniques: [
    {
      name: 'webhook_deliveries_subscription_event_manual_key',
      properties: ['subscriptionId', 'eventId', 'manualId'],
    },
  ],
  checks: [
    {
      name: 'webhook_deliveries_manual_id_check',
      expression: '(manual_id IS NULL) OR (manual_id = id)',
    },
  ],
  properties: {
    id: textKey(),
    tenantId: p.text().collation('C'),
    subscriptionId: p.text().collation('C'),
    eventId: textKey(),
    eventType: p.text(),
    status: p.enum(DELIVERY_STATUSES),
    attemptCount: p.integer().default(0),
    nextAttemptAt: instant().nullable(),
    lockedUntil: instant().nullable(),
    lastStatusCode: p.integer().nullable(),
    createdAt: instant(),
    updatedAt: instant(),
    finishedAt: instant().nullable(),
    enqueuedAt: instant().nullable(),
    manualId: p.text().nullable().collation('C'),
    redeliveryOf: p.text().nullable().collation('C'),
    pacedSlotAt: instant().nullable(),
    orderKey: p.text().nullable().collation('C'),
    orderSeq: p.bigint().nullable(),
    /** What the event is about (a page, a brand, a subscription), for the delivery search; null for a test event. */
    subjectId: p.text().nullable().collation('C'),
  },
});

export type WebhookDeliveryRow = InferEntity<typeof WebhookDeliveryEntity>;
