import { Injectable } from '@nestjs/common';
import { InvalidValueError } from '../../../domain/shared/domain-error';
import { ManualDeliveryRequest } from './manual-delivery-request';

/** How far back a recovery may reach, and how many deliveries one request queues (documented). */
export const RECOVER_MAX_DAYS = 30;
export const RECOVER_MAX_DELIVERIES = 10_000;
const DAY_MS = 86_400_000;

/** POST …/recover: redeliver what failed since a time, after the receiver is fixed. */
@Injectable()
export class RecoverDeliveries extends ManualDeliveryRequest {
  async execute(input: { tenantId: string; subscriptionId: string; since: Date }): Promise<{ queued: number; hasMore: boolean }> {
    const now = this.clock.now();
    if (input.since.getTime() < now.getTime() - RECOVER_MAX_DAYS * DAY_MS) throw new InvalidValueError('since', `must be at most ${RECOVER_MAX_DAYS} days ago`);
    if (input.since > now) throw new InvalidValueError('since', 'must not be in the future');
    // Past the tenant's room for manual work it queues what fits: `hasMore` says the rest waits.
    return this.forLiveSubscription(input, () =>
      this.requests.recover({ ...input, now, limit: RECOVER_MAX_DELIVERIES, pendingMax: this.limits.manualPendingPerTenant }),
    );
  }
}
