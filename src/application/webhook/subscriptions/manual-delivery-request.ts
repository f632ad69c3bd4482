import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { checkMayReceive } from '../../../domain/api-key/receive-scopes';
import { Clock } from '../../../domain/shared/clock.port';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { DeliveryRequests } from './delivery-requests.port';
import { holdSubscriptionOrFail } from './subscription-or-fail';
import { WebhookLimits } from './webhook-limits.port';

/**
 * What the deliveries a customer asks for (redeliver, recover, test) share: each checks the
 * subscription and writes its request in one unit of work, within the tenant's room for manual
 * deliveries (`limits.manualPendingPerTenant`), and only for a key that may receive every kind
 * the subscription lists (`grant`, decisions.md 178): it sends to the subscription's URL.
 */
@Injectable()
export abstract class ManualDeliveryRequest {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    protected readonly requests: DeliveryRequests,
    protected readonly clock: Clock,
    protected readonly limits: WebhookLimits,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Runs `work` in one unit of work once the tenant's live subscription is held (so it cannot be
   * deleted before the commit); NotFoundError without running it otherwise, ReceiveScopeError
   * when `grant` does not cover a kind it lists. The subscription is not loaded: no secret is
   * decrypted to check it.
   */
  protected forLiveSubscription<T>(input: { tenantId: string; subscriptionId: string; grant: ApiKeyScopes }, work: () => Promise<T>): Promise<T> {
    return this.unitOfWork.run(async () => {
      checkMayReceive(input.grant, await holdSubscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId));
      return work();
    });
  }
}
