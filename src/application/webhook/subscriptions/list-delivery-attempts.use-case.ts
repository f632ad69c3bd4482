import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { ListSlice, ListRequest } from '../../shared/pagination';
import { subscriptionOrFail } from './subscription-or-fail';
import { WebhookSubscriptionQueries } from './webhook-subscription-queries.port';
import { DeliveryAttemptView } from './delivery-attempt.view';

@Injectable()
export class ListDeliveryAttempts {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly queries: WebhookSubscriptionQueries,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string } & ListRequest): Promise<ListSlice<DeliveryAttemptView>> {
    await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
    return this.queries.attempts(input.tenantId, input.subscriptionId, { limit: input.limit, after: input.after }, this.clock.now());
  }
}
