import { TEST_EVENT_TYPE } from '../events/event-catalogue';
import { DomainEvent } from '../shared/domain-event';
import { newTypeId } from '../shared/type-id';
import { WebhookSubscription } from './webhook-subscription';

export interface WebhookTestData {
  subscriptionId: string;
}

/** The `webhook.test` event a customer asks for to try their receiver: it names the subscription only. */
export function webhookTestEvent(subscription: WebhookSubscription, now: Date): DomainEvent<WebhookTestData> {
  return { id: newTypeId('evt', now.getTime()), type: TEST_EVENT_TYPE, tenantId: subscription.tenantId, occurredAt: now, data: { subscriptionId: subscription.id } };
}
