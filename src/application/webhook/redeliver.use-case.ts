import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { InProgressError, NotFoundError } from '../../domain/shared/domain-error';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';
import { DeliveryRequests, ManualDelivery } from './delivery-requests.ports';
import { manualBacklogFull, WebhookLimits } from './webhook-limits';
import { subscriptionOrFail } from './subscription-or-fail';

/** POST …/deliveries/{id}/redeliver: one attempt now, the same body and webhook-id, outside the schedule. */
@Injectable()
export class Redeliver {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly requests: DeliveryRequests,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string; deliveryId: string }): Promise<ManualDelivery> {
    await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
    const result = await this.requests.redeliver({ ...input, now: this.clock.now(), pendingMax: this.limits.manualPendingPerTenant });
    if (result === 'not-found') throw new NotFoundError('delivery', input.deliveryId);
    if (result === 'no-room') throw manualBacklogFull(this.limits.manualPendingPerTenant);
    if (result === 'in-flight') {
      throw new InProgressError(`delivery ${input.deliveryId} has an attempt in flight or a redelivery waiting; retry once it has finished`, { deliveryId: input.deliveryId });
    }
    return result;
  }
}
