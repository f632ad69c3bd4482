import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { NewWebhookSubscription, WebhookSubscription } from '../../domain/webhook/webhook-subscription';
import { SigningSecretGenerator, WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';
import { WebhookLimits } from './webhook-limits';
import { SubscriptionLimitError } from '../../domain/webhook/webhook.errors';
import { TargetPolicy } from './target-policy';
import { toSubscriptionView, WebhookSubscriptionView } from './webhook-subscription.view';
import { UnitOfWork } from '../shared/unit-of-work';

@Injectable()
export class CreateWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly secrets: SigningSecretGenerator,
    private readonly targets: TargetPolicy,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The only response that carries the signing secret. */
  async execute(input: NewWebhookSubscription): Promise<WebhookSubscriptionView> {
    const subscription = WebhookSubscription.create(input, this.secrets.generate(), this.clock.now());
    this.targets.check(subscription.url);
    const added = await this.unitOfWork.run(() => this.subscriptions.addWithin(subscription, this.limits.subscriptionsPerTenant));
    if (!added) throw new SubscriptionLimitError(this.limits.subscriptionsPerTenant);
    return toSubscriptionView(subscription, true);
  }
}

