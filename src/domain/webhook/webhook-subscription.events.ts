import { DomainEvent, domainEvent } from '../shared/domain-event';
import { HealthChange } from './endpoint-health';
import { HealthView, SubscriptionViewSource, toHealthView } from './webhook-subscription.view';

/** The operational events about a subscription's endpoint, by the health change that causes each. */
export const HEALTH_EVENT_TYPES = {
  'breaker-opened': 'webhook_subscription.failing',
  recovered: 'webhook_subscription.recovered',
  disabled: 'webhook_subscription.disabled',
} as const;

/**
 * A health event's data: which subscription and its health after the change, never its URL (a
 * token in its query would reach every `events:read` key and every subscriber; decisions.md 178).
 * GET /v0/webhook_subscriptions/{id} answers the rest to a key that may read subscriptions.
 */
export interface SubscriptionHealthData {
  id: string;
  active: boolean;
  health: HealthView;
}

export function healthEvent(change: Exclude<HealthChange, null>, subscription: SubscriptionViewSource & { tenantId: string }, at: Date): DomainEvent<SubscriptionHealthData> {
  const data = { id: subscription.id, active: subscription.active, health: toHealthView(subscription.health, subscription.active) };
  return domainEvent(HEALTH_EVENT_TYPES[change], subscription.tenantId, at, data);
}
