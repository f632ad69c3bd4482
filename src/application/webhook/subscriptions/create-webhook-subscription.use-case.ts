import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { checkMayReceive } from '../../../domain/api-key/receive-scopes';
import { Clock } from '../../../domain/shared/clock.port';
import { NewWebhookSubscription, WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { SigningSecretGenerator } from '../../../domain/webhook/signing-secret-generator.port';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { WebhookLimits } from './webhook-limits.port';
import { SubscriptionLimitError } from '../../../domain/webhook/webhook.errors';
import { TargetPolicy } from './target-policy.port';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { FilterTargets } from './filter-targets.port';
import { filterTargetsOrFail } from './filter-targets-or-fail';

@Injectable()
export class CreateWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly secrets: SigningSecretGenerator,
    private readonly targets: TargetPolicy,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
    private readonly unitOfWork: UnitOfWork,
    private readonly filterTargets: FilterTargets,
  ) {}

  /**
   * The only response that carries the signing secret. `grant`: the calling key's scopes, which
   * must cover every kind the subscription lists (decisions.md 178).
   */
  async execute(input: NewWebhookSubscription & { grant: ApiKeyScopes }): Promise<WebhookSubscriptionView> {
    const { grant, ...fields } = input;
    const subscription = WebhookSubscription.create(fields, this.secrets.generate(), this.clock.now());
    checkMayReceive(grant, subscription.events);
    this.targets.check(subscription.url);
    const added = await this.unitOfWork.run(async () => {
      await filterTargetsOrFail(this.filterTargets, subscription.tenantId, subscription.filter);
      return this.subscriptions.add(subscription, this.limits.subscriptionsPerTenant);
    });
    if (!added) throw new SubscriptionLimitError(this.limits.subscriptionsPerTenant);
    return toSubscriptionView(subscription, true);
  }
}

