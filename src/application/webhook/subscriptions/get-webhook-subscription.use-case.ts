import { Injectable } from '@nestjs/common';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { subscriptionOrFail } from './subscription-or-fail';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

@Injectable()
export class GetWebhookSubscription {
  constructor(private readonly subscriptions: WebhookSubscriptionRepository) {}

  async execute(input: { tenantId: string; subscriptionId: string }): Promise<WebhookSubscriptionView> {
    return toSubscriptionView(await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId));
  }
}
