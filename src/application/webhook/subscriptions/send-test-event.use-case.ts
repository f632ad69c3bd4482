import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { TestDelivery } from '../../../domain/webhook/test-delivery';
import { ManualBacklogFullError } from '../../../domain/webhook/webhook.errors';
import { ManualDelivery } from './delivery-requests.port';
import { ManualDeliveryRequest } from './manual-delivery-request';

/**
 * POST …/test: a `webhook.test` event to this subscription only, whether or not it lists the kind
 * and whether or not it is active (a customer tries a receiver before turning it on).
 */
@Injectable()
export class SendTestEvent extends ManualDeliveryRequest {
  execute(input: { tenantId: string; subscriptionId: string; grant: ApiKeyScopes }): Promise<ManualDelivery> {
    return this.forLiveSubscription(input, async () => {
      const delivery = TestDelivery.to({ tenantId: input.tenantId, subscriptionId: input.subscriptionId }, this.clock.now());
      if ((await this.requests.addTest(delivery, this.limits.manualPendingPerTenant)) === 'no-room') throw new ManualBacklogFullError(this.limits.manualPendingPerTenant);
      return { deliveryId: delivery.id, eventId: delivery.eventId, redeliveryOf: null };
    });
  }
}
