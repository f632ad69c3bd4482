import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { InvalidValueError } from '../../../domain/shared/domain-error';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { DeliveryRequests } from './delivery-requests.port';
import { WebhookLimits } from './webhook-limits.port';
import { holdSubscriptionOrFail } from './subscription-or-fail';
import { UnitOfWork } from '../../shared/unit-of-work.port';

/** How far back a recovery may reach, and how many deliveries one request queues (documented). */
export const RECOVER_MAX_DAYS = 30;
export const RECOVER_MAX_DELIVERIES = 10_000;
const DAY_MS = 86_400_000;

/** POST …/recover: redeliver what failed since a time, after the receiver is fixed. */
@Injectable()
export class RecoverDeliveries {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly requests: DeliveryRequests,
    private readonly clock: Clock,
    private readonly limits: WebhookLimits,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string; since: Date }): Promise<{ queued: number; hasMore: boolean }> {
    const now = this.clock.now();
    if (input.since.getTime() < now.getTime() - RECOVER_MAX_DAYS * DAY_MS) throw new InvalidValueError('since', `must be at most ${RECOVER_MAX_DAYS} days ago`);
    if (input.since > now) throw new InvalidValueError('since', 'must not be in the future');
    return this.unitOfWork.run(async () => {
      await holdSubscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
      // Past the tenant's room for manual work it queues what fits: `hasMore` says the rest waits.
      return this.requests.recover({ ...input, now, limit: RECOVER_MAX_DELIVERIES, pendingMax: this.limits.manualPendingPerTenant });
    });
  }
}
