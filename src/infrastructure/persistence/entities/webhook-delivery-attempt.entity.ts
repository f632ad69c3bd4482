import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';
import { partitionedByDay } from './history-partitions';

export const WebhookDeliveryAttemptEntity = defineEntity({
  name: 'WebhookDeliveryAttemptRow',
  tableName: 'webhook_delivery_attempts',
  partitionBy: partitionedByDay('webhook_delivery_attempts', 'event_id', 'evt'),
  indexes: [
    {
      name: 'webhook_delivery_attempts_subscription_idx',
      properties: ['subscriptionId', 'id'],
    },
  ],
  uniques: [
    {
      name: 'webhook_delivery_attempts_number_key',
      properties: ['deliveryId', 'attemptNumber', 'eventId'],
    },
  ],
  properties: {
    id: textKey(),
    tenantId: p.text().collation('C'),
    deliveryId: p.text().collation('C'),
    subscriptionId: p.text().collation('C'),
    eventId: textKey(),
    eventType: p.text(),
    attemptNumber: p.integer(),
    statusCode: p.integer().nullable(),
    durationMs: p.integer(),
    error: p.text().nullable(),
    nextAttemptAt: instant().nullable(),
    createdAt: instant(),
    /** What made the attempt: the schedule, or a manual redelivery (the column's check admits only these). */
    trigger: p.text().$type<'scheduled' | 'manual'>().default('scheduled'),
    redeliveryOf: p.text().nullable().collation('C'),
    /** When the request went (its webhook-timestamp); null for attempts recorded before it was kept. */
    sentAt: instant().nullable(),
    /** The start of the receiver's answer when it was not a 2xx (RESPONSE_EXCERPT_BYTES, docs/webhooks.md). */
    responseExcerpt: p.text().nullable(),
  },
});

export type WebhookDeliveryAttemptRow = InferEntity<typeof WebhookDeliveryAttemptEntity>;
