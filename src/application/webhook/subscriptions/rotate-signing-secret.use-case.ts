import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { DEFAULT_SECRET_OVERLAP_SECONDS } from '../../../domain/webhook/signing-secrets';
import { SigningSecretGenerator } from '../../../domain/webhook/signing-secret-generator.port';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { subscriptionOrFail } from './subscription-or-fail';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

/**
 * A new signing secret, answered once; the old one keeps signing deliveries beside it until it
 * expires. Under the subscription's row lock, so two rotations at once keep both old secrets.
 */
@Injectable()
export class RotateSigningSecret {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly secrets: SigningSecretGenerator,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; subscriptionId: string; expiresInSeconds?: number }): Promise<WebhookSubscriptionView> {
    return this.unitOfWork.run(async () => {
      const subscription = await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId, { forUpdate: true });
      subscription.rotateSecret(this.secrets.generate(), input.expiresInSeconds ?? DEFAULT_SECRET_OVERLAP_SECONDS, this.clock.now());
      await this.subscriptions.save(subscription);
      return toSubscriptionView(subscription, true);
    });
  }
}
