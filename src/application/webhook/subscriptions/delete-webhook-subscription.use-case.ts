import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { Precondition } from '../../shared/precondition';
import { subscriptionOrFail } from './subscription-or-fail';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

/** Deletes a subscription: pending deliveries to it are cancelled when their turn comes. */
@Injectable()
export class DeleteWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; subscriptionId: string; precondition?: Precondition<WebhookSubscriptionView> }): Promise<void> {
    return this.unitOfWork.run(async () => {
      const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId, { forUpdate: true });
      input.precondition?.(toSubscriptionView(subscription));
      subscription.delete(this.clock.now());
      await this.subscriptions.save(subscription);
    });
  }
}
