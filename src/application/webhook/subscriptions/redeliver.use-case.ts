import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { kindsReceivableWith, receiveRefusal } from '../../../domain/api-key/receive-scopes';
import { NotFoundError } from '../../../domain/shared/domain-error';
import { DeliveryInProgressError, ManualBacklogFullError } from '../../../domain/webhook/webhook.errors';
import { ManualDelivery } from './delivery-requests.port';
import { ManualDeliveryRequest } from './manual-delivery-request';

/**
 * POST …/deliveries/{id}/redeliver: one attempt now, the same body and webhook-id, outside the
 * schedule. The key must be allowed to receive the delivery's kind too: the subscription may list other
 * kinds now than when it was made (decisions.md 178).
 */
@Injectable()
export class Redeliver extends ManualDeliveryRequest {
  execute(input: { tenantId: string; subscriptionId: string; deliveryId: string; grant: ApiKeyScopes }): Promise<ManualDelivery> {
    return this.forLiveSubscription(input, async () => {
      const { tenantId, subscriptionId, deliveryId } = input;
      const receivable = kindsReceivableWith(input.grant);
      const result = await this.requests.redeliver({ tenantId, subscriptionId, deliveryId, now: this.clock.now(), pendingMax: this.limits.manualPendingPerTenant, ...(receivable && { receivable }) });
      if (result === 'not-found') throw new NotFoundError('delivery', input.deliveryId);
      if (result === 'no-room') throw new ManualBacklogFullError(this.limits.manualPendingPerTenant);
      if (result === 'in-flight') throw new DeliveryInProgressError(input.deliveryId);
      // The store refused it, so the grant lacks the kind's scope: the refusal is never null here.
      if ('notReceivable' in result) throw receiveRefusal(input.grant, [result.notReceivable])!;
      return result;
    });
  }
}
