import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { webhookTestEvent } from '../../domain/webhook/test-event';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';
import { DeliveryRequests, ManualDelivery } from './delivery-requests.ports';
import { manualBacklogFull, WebhookLimits } from './webhook-limits';
import { subscriptionOrFail } from './subscription-or-fail';

/**
 * POST …/test: a `webhook.test` event to this subscription only, whether or not it lists the kind
 * and whether or not it is active (a customer tries a receiver before turning it on).
 */
@Injectable()
export class SendTestEvent {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly requests: DeliveryRequests,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string }): Promise<ManualDelivery> {
    const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
    const now = this.clock.now();
    const result = await this.requests.sendTest({ subscriptionId: subscription.id, event: webhookTestEvent(subscription, now), now, pendingMax: this.limits.manualPendingPerTenant });
    if (result === 'no-room') throw manualBacklogFull(this.limits.manualPendingPerTenant);
    return result;
  }
}
