import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { checkMayReceive } from '../../../domain/api-key/receive-scopes';
import { Clock } from '../../../domain/shared/clock.port';
import { WebhookSubscriptionChanges } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { Precondition } from '../../shared/precondition';
import { subscriptionOrFail } from './subscription-or-fail';
import { FilterTargets } from './filter-targets.port';
import { filterTargetsOrFail } from './filter-targets-or-fail';
import { TargetPolicy } from './target-policy.port';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

@Injectable()
export class UpdateWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly targets: TargetPolicy,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly filterTargets: FilterTargets,
  ) {}

  /**
   * Under the subscription's row lock: a PATCH racing a DELETE cannot write the row back alive.
   * `grant` (the calling key's scopes) must cover the kinds listed before and after the change:
   * a new URL receives the retries of both (decisions.md 178).
   */
  execute(input: {
    tenantId: string;
    subscriptionId: string;
    changes: WebhookSubscriptionChanges;
    grant: ApiKeyScopes;
    /** Checked on the subscription as it is, under its row lock, before the change (If-Match). */
    precondition?: Precondition<WebhookSubscriptionView>;
  }): Promise<WebhookSubscriptionView> {
    return this.unitOfWork.run(async () => {
      const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId, { forUpdate: true });
      input.precondition?.(toSubscriptionView(subscription));
      checkMayReceive(input.grant, subscription.events);
      subscription.update(input.changes, this.clock.now());
      checkMayReceive(input.grant, subscription.events);
      this.targets.check(subscription.url);
      // Only a filter this PATCH sets is checked: one stored earlier may name a page group deleted since.
      if (input.changes.filter) await filterTargetsOrFail(this.filterTargets, input.tenantId, subscription.filter);
      await this.subscriptions.save(subscription);
      return toSubscriptionView(subscription);
    });
  }
}
