import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { WebhookSubscriptionChanges } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { Precondition } from '../../shared/precondition';
import { subscriptionOrFail } from './subscription-or-fail';
import { TargetPolicy } from './target-policy.port';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

@Injectable()
export class UpdateWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly targets: TargetPolicy,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Under the subscription's row lock: a PATCH racing a DELETE cannot write the row back alive. */
  execute(input: {
    tenantId: string;
    subscriptionId: string;
    changes: WebhookSubscriptionChanges;
    /** Checked on the subscription as it is, under its row lock, before the change (If-Match). */
    precondition?: Precondition<WebhookSubscriptionView>;
  }): Promise<WebhookSubscriptionView> {
    return this.unitOfWork.run(async () => {
      const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId, { forUpdate: true });
      input.precondition?.(toSubscriptionView(subscription));
      subscription.update(input.changes, this.clock.now());
      this.targets.check(subscription.url);
      await this.subscriptions.save(subscription);
      return toSubscriptionView(subscription);
    });
  }
}
