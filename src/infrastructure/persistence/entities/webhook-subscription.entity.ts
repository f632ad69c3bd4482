import { DELIVERY_ORDERINGS, DISABLED_REASONS } from '../../../domain/webhook/subscription-kinds';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import type { StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import type { EventType } from '../../../domain/events/event-catalogue';
import { TenantEntity } from './tenant.entity';

export const WebhookSubscriptionEntity = defineEntity({
  name: 'WebhookSubscriptionRow',
  tableName: 'webhook_subscriptions',
  indexes: [
    {
      name: 'webhook_subscriptions_live_idx',
      where: 'deleted_at IS NULL',
      properties: ['tenant', 'id'],
    },
  ],
  checks: [
    {
      name: 'webhook_subscriptions_consecutive_failures_check',
      expression: 'consecutive_failures >= 0',
    },
    {
      name: 'webhook_subscriptions_delivery_filter_check',
      expression: '(delivery_filter IS NULL) OR (jsonb_typeof(delivery_filter) = \'object\'::text)',
    },
    {
      name: 'webhook_subscriptions_events_check',
      expression: 'cardinality(events) >= 1',
    },
    {
      name: 'webhook_subscriptions_rate_limit_per_second_check',
      expression: '(rate_limit_per_second >= 1) AND (rate_limit_per_second <= 10000)',
    },
    {
      name: 'webhook_subscriptions_url_check',
      expression: 'char_length(url) <= 2048',
    },
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    url: p.text(),
    events: p.array().columnType('text[]').$type<EventType[]>(),
    active: p.boolean(),
    signingSecretEncrypted: p.text(),
    createdAt: instant(),
    updatedAt: instant(),
    deletedAt: instant().nullable(),
    previousSigningSecrets: p.json().$type<StoredPreviousSecret[]>().default('[]'),
    rateLimitPerSecond: p.integer().nullable(),
    sendNotBefore: instant().nullable(),
    consecutiveFailures: p.integer().default(0),
    lastSuccessAt: instant().nullable(),
    lastFailureAt: instant().nullable(),
    disableAt: instant().nullable(),
    disabledReason: p.enum(DISABLED_REASONS).nullable(),
    breakerProbeAt: instant().nullable(),
    breakerProbes: p.integer().default(0),
    healthFailingSentAt: instant().nullable(),
    healthRecoveryOwed: p.boolean().default(false),
    breakerProbeDeliveryId: p.text().nullable().collation('C'),
    heldReleaseAt: instant().nullable(),
    deliveryFilter: p.json().$type<DeliveryFilter>().nullable(),
    ordering: p.enum(DELIVERY_ORDERINGS).default('none'),
  },
});

export type WebhookSubscriptionRow = InferEntity<typeof WebhookSubscriptionEntity>;
