import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest } from '../../shared/pagination';
import { WebhookSubscriptionQueries } from './webhook-subscription-queries.port';
import { WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

@Injectable()
export class ListWebhookSubscriptions {
  constructor(private readonly queries: WebhookSubscriptionQueries) {}

  /** `only`: the subscriptions a portal session is narrowed to (null: all of the tenant's). */
  execute(input: { tenantId: string; only?: readonly string[] | null } & ListRequest): Promise<ListSlice<WebhookSubscriptionView>> {
    return this.queries.list(input.tenantId, { limit: input.limit, after: input.after }, input.only ?? null);
  }
}
