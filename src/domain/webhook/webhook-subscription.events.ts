import { DomainEvent, domainEvent } from '../shared/domain-event';
import { HealthChange } from './endpoint-health';
import { SubscriptionViewSource, toSubscriptionView, WebhookSubscriptionView } from './webhook-subscription.view';

/** The operational events about a subscription's endpoint, by the health change that causes each. */
export const HEALTH_EVENT_TYPES = {
  'breaker-opened': 'webhook_subscription.failing',
  recovered: 'webhook_subscription.recovered',
  disabled: 'webhook_subscription.disabled',
} as const;

/** Its data is the subscription as GET answers it (never its secret), with its health after the change. */
export function healthEvent(change: Exclude<HealthChange, null>, subscription: SubscriptionViewSource & { tenantId: string }, at: Date): DomainEvent<WebhookSubscriptionView> {
  return domainEvent(HEALTH_EVENT_TYPES[change], subscription.tenantId, at, toSubscriptionView(subscription));
}
