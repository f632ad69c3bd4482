import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { WebhookSubscriptionChanges } from '../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';
import { subscriptionOrFail } from './subscription-or-fail';
import { TargetPolicy } from './target-policy';
import { toSubscriptionView, WebhookSubscriptionView } from './webhook-subscription.view';

@Injectable()
export class UpdateWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly targets: TargetPolicy,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string; changes: WebhookSubscriptionChanges }): Promise<WebhookSubscriptionView> {
    const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
    subscription.update(input.changes, this.clock.now());
    this.targets.check(subscription.url);
    await this.subscriptions.save(subscription);
    return toSubscriptionView(subscription);
  }
}
