import { Injectable } from '@nestjs/common';
import { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { kindsReceivableWith } from '../../../domain/api-key/receive-scopes';
import { InvalidValueError } from '../../../domain/shared/domain-error';
import { ManualDeliveryRequest } from './manual-delivery-request';

/** How far back a recovery may reach, and how many deliveries one request queues (documented). */
export const RECOVER_MAX_DAYS = 30;
export const RECOVER_MAX_DELIVERIES = 10_000;
const DAY_MS = 86_400_000;

/**
 * POST …/recover: redeliver what failed since a time, after the receiver is fixed; of the kinds
 * the key may receive only (a subscription may have listed others then: decisions.md 178).
 */
@Injectable()
export class RecoverDeliveries extends ManualDeliveryRequest {
  async execute(input: { tenantId: string; subscriptionId: string; since: Date; grant: ApiKeyScopes }): Promise<{ queued: number; hasMore: boolean }> {
    const now = this.clock.now();
    if (input.since.getTime() < now.getTime() - RECOVER_MAX_DAYS * DAY_MS) throw new InvalidValueError('since', `must be at most ${RECOVER_MAX_DAYS} days ago`);
    if (input.since > now) throw new InvalidValueError('since', 'must not be in the future');
    const { tenantId, subscriptionId, since } = input;
    const receivable = kindsReceivableWith(input.grant);
    // Past the tenant's room for manual work it queues what fits: `hasMore` says the rest waits.
    return this.forLiveSubscription(input, () =>
      this.requests.recover({ tenantId, subscriptionId, since, now, limit: RECOVER_MAX_DELIVERIES, pendingMax: this.limits.manualPendingPerTenant, ...(receivable && { receivable }) }),
    );
  }
}
