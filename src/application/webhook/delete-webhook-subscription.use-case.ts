import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';
import { subscriptionOrFail } from './subscription-or-fail';

/** Deletes a subscription: pending deliveries to it are cancelled when their turn comes. */
@Injectable()
export class DeleteWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string }): Promise<void> {
    const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
    subscription.delete(this.clock.now());
    await this.subscriptions.save(subscription);
  }
}
