import { TEST_EVENT_TYPE } from '../events/event-catalogue';
import { AggregateRoot, StateOf } from '../shared/aggregate-root';
import { DomainEvent, domainEvent } from '../shared/domain-event';
import { newTypeId } from '../shared/type-id';

export interface WebhookTestData {
  subscriptionId: string;
}

/**
 * The delivery a customer asks for to try a receiver (POST …/test): one attempt of a new
 * `webhook.test` event, which names the subscription only, to that subscription alone, whether
 * or not it lists the kind or is active. It records that event like every aggregate records its
 * own; the store writes the event as relayed already, since this delivery is its only one.
 */
export class TestDelivery extends AggregateRoot<StateOf<TestDelivery>> {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly subscriptionId: string,
    readonly eventId: string,
    readonly createdAt: Date,
  ) {
    super();
  }

  static to(subscription: { tenantId: string; subscriptionId: string }, now: Date): TestDelivery {
    const event: DomainEvent<WebhookTestData> = domainEvent(TEST_EVENT_TYPE, subscription.tenantId, now, { subscriptionId: subscription.subscriptionId });
    const delivery = new TestDelivery(newTypeId('whdlv', now.getTime()), subscription.tenantId, subscription.subscriptionId, event.id, now);
    delivery.record(event);
    return delivery;
  }
}
