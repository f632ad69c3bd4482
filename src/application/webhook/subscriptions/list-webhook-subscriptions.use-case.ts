import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest } from '../../shared/pagination';
import { WebhookSubscriptionQueries } from './webhook-subscription-queries.port';
import { WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';

@Injectable()
export class ListWebhookSubscriptions {
  constructor(private readonly queries: WebhookSubscriptionQueries) {}

  execute(input: { tenantId: string } & ListRequest): Promise<ListSlice<WebhookSubscriptionView>> {
    return this.queries.list(input.tenantId, { limit: input.limit, after: input.after });
  }
}
