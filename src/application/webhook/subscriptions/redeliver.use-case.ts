import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../domain/shared/domain-error';
import { DeliveryInProgressError, ManualBacklogFullError } from '../../../domain/webhook/webhook.errors';
import { ManualDelivery } from './delivery-requests.port';
import { ManualDeliveryRequest } from './manual-delivery-request';

/** POST …/deliveries/{id}/redeliver: one attempt now, the same body and webhook-id, outside the schedule. */
@Injectable()
export class Redeliver extends ManualDeliveryRequest {
  execute(input: { tenantId: string; subscriptionId: string; deliveryId: string }): Promise<ManualDelivery> {
    return this.forLiveSubscription(input, async () => {
      const result = await this.requests.redeliver({ ...input, now: this.clock.now(), pendingMax: this.limits.manualPendingPerTenant });
      if (result === 'not-found') throw new NotFoundError('delivery', input.deliveryId);
      if (result === 'no-room') throw new ManualBacklogFullError(this.limits.manualPendingPerTenant);
      if (result === 'in-flight') throw new DeliveryInProgressError(input.deliveryId);
      return result;
    });
  }
}
