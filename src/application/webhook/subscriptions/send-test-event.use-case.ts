import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { TestDelivery } from '../../../domain/webhook/test-delivery';
import { ManualBacklogFullError } from '../../../domain/webhook/webhook.errors';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { DeliveryRequests, ManualDelivery } from './delivery-requests.port';
import { holdSubscriptionOrFail } from './subscription-or-fail';
import { WebhookLimits } from './webhook-limits.port';

/**
 * POST …/test: a `webhook.test` event to this subscription only, whether or not it lists the kind
 * and whether or not it is active (a customer tries a receiver before turning it on).
 */
@Injectable()
export class SendTestEvent {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly requests: DeliveryRequests,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; subscriptionId: string }): Promise<ManualDelivery> {
    return this.unitOfWork.run(async () => {
      await holdSubscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
      const delivery = TestDelivery.to(input, this.clock.now());
      if ((await this.requests.addTest(delivery, this.limits.manualPendingPerTenant)) === 'no-room') throw new ManualBacklogFullError(this.limits.manualPendingPerTenant);
      return { deliveryId: delivery.id, eventId: delivery.eventId, redeliveryOf: null };
    });
  }
}
