import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { NotFoundError } from '../../../domain/shared/domain-error';
import { DeliveryInProgressError, ManualBacklogFullError } from '../../../domain/webhook/webhook.errors';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { DeliveryRequests, ManualDelivery } from './delivery-requests.port';
import { holdSubscriptionOrFail } from './subscription-or-fail';
import { WebhookLimits } from './webhook-limits.port';

/** POST …/deliveries/{id}/redeliver: one attempt now, the same body and webhook-id, outside the schedule. */
@Injectable()
export class Redeliver {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly requests: DeliveryRequests,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; subscriptionId: string; deliveryId: string }): Promise<ManualDelivery> {
    return this.unitOfWork.run(async () => {
      await holdSubscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
      const result = await this.requests.redeliver({ ...input, now: this.clock.now(), pendingMax: this.limits.manualPendingPerTenant });
      if (result === 'not-found') throw new NotFoundError('delivery', input.deliveryId);
      if (result === 'no-room') throw new ManualBacklogFullError(this.limits.manualPendingPerTenant);
      if (result === 'in-flight') throw new DeliveryInProgressError(input.deliveryId);
      return result;
    });
  }
}
