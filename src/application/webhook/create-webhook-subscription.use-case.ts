import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { LimitExceededError } from '../../domain/shared/domain-error';
import { NewWebhookSubscription, WebhookSubscription } from '../../domain/webhook/webhook-subscription';
import { SigningSecretGenerator, WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';
import { WebhookLimits } from './webhook-limits';
import { TargetPolicy } from './target-policy';
import { toSubscriptionView, WebhookSubscriptionView } from './webhook-subscription.view';

@Injectable()
export class CreateWebhookSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly secrets: SigningSecretGenerator,
    private readonly targets: TargetPolicy,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
  ) {}

  /** The only response that carries the signing secret. */
  async execute(input: NewWebhookSubscription): Promise<WebhookSubscriptionView> {
    const subscription = WebhookSubscription.create(input, this.secrets.generate(), this.clock.now());
    this.targets.check(subscription.url);
    if (!(await this.subscriptions.addWithin(subscription, this.limits.subscriptionsPerTenant))) throw new LimitExceededError('webhook subscriptions', this.limits.subscriptionsPerTenant);
    return toSubscriptionView(subscription, true);
  }
}

