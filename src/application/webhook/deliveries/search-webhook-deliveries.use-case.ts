import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { ListRequest, ListSlice } from '../../shared/pagination';
import { WebhookDeliveryQueries } from './webhook-delivery-queries.port';
import { DeliverySearchCriteria, WebhookDeliveryView } from './webhook-delivery.view';

/** The tenant's deliveries across its subscriptions, newest first (GET /v0/webhook_deliveries). */
@Injectable()
export class SearchWebhookDeliveries {
  constructor(
    private readonly queries: WebhookDeliveryQueries,
    private readonly clock: Clock,
  ) {}

  execute(input: { tenantId: string; criteria: DeliverySearchCriteria } & ListRequest): Promise<ListSlice<WebhookDeliveryView>> {
    return this.queries.search(input.tenantId, input.criteria, { limit: input.limit, after: input.after }, this.clock.now());
  }
}
