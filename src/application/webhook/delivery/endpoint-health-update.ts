import { Injectable } from '@nestjs/common';
import { breakerOpen, HealthChange } from '../../../domain/webhook/endpoint-health';
import { AttemptOutcome } from '../../../domain/webhook/retry-policy';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { DeliveryClaim } from './delivery-job';
import { WebhookSettings } from './webhook-settings.port';

/**
 * Every finished attempt, manual ones too, tells the endpoint's health (endpoint-health.ts),
 * through the subscription aggregate, its one writer: under the row lock, so that attempts
 * finishing at once take turns, and the events the change records commit with it. A success to
 * an endpoint that was healthy changes nothing but its last success, which the attempt's record
 * notes (DeliveryClaims.record).
 */
@Injectable()
export class EndpointHealthUpdate {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly settings: WebhookSettings,
  ) {}

  /** The change the attempt made (told or not), and whether the breaker is open after it. */
  async after(claim: DeliveryClaim, outcome: AttemptOutcome, at: Date, probe: boolean): Promise<{ change: HealthChange; breakerOpen: boolean }> {
    if (outcome.kind === 'delivered' && claim.subscription.healthy) return { change: null, breakerOpen: false };
    return this.unitOfWork.run(async () => {
      const subscription = await this.subscriptions.findById(claim.tenantId, claim.subscription.id, { forUpdate: true });
      if (!subscription) return { change: null, breakerOpen: false };
      const change = subscription.attemptFinished(outcome.kind, at, this.settings.health, probe);
      await this.subscriptions.saveHealth(subscription);
      return { change, breakerOpen: breakerOpen(subscription.health) };
    });
  }
}
