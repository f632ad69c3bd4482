import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetWebhookDelivery } from '../../../application/webhook/deliveries/get-webhook-delivery.use-case';
import { SearchWebhookDeliveries } from '../../../application/webhook/deliveries/search-webhook-deliveries.use-case';
import { DeliverySearchCriteria, WebhookDeliveryDetailView, WebhookDeliveryView } from '../../../application/webhook/deliveries/webhook-delivery.view';
import { ApiError } from '../errors/api-error';
import { ApiErrors } from '../errors/error-responses.decorator';
import { PortalCapable } from '../guards/portal-capability.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { PortalReach, TenantId } from '../guards/tenant.decorator';
import { ListEnvelope, toEnvelope } from '../pagination/list-envelope';
import { toListRequest } from '../pagination/list-request';
import { SearchDeliveriesQueryDto } from './search-deliveries.query';
import { WebhookDeliveryDetailResponse, WebhookDeliveryListResponse } from './webhook-delivery.response';

const EXTENSION = 'An extension of the spec (docs/webhooks.md, Finding a delivery).';

/** The tenant's deliveries across its subscriptions: what went where, and what came back. */
@ApiTags('Webhook deliveries')
@Controller('v0/webhook_deliveries')
export class WebhookDeliveriesController {
  constructor(
    private readonly searchDeliveries: SearchWebhookDeliveries,
    private readonly getDelivery: GetWebhookDelivery,
  ) {}

  @Get()
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read')
  @ApiExtension('x-extension', true)
  @ApiOperation({
    summary: 'Search deliveries',
    description:
      'Newest first, across the tenant\'s subscriptions (or a portal session\'s), narrowed by any of status, event type, subscription, page or brand, and time. ' +
      `Kept as long as events are (WEBHOOK_RETENTION_DAYS). The cursor holds the filters: a cursor of one search is refused by another. ${EXTENSION}`,
  })
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  @ApiErrors(400)
  async search(@TenantId() tenantId: string, @PortalReach() only: readonly string[] | null, @Query() query: SearchDeliveriesQueryDto): Promise<ListEnvelope<WebhookDeliveryView>> {
    const criteria = criteriaOf(query, only);
    // The cursor is bound to the filters: a cursor of one search is refused by the others.
    const list = `webhook_deliveries:${[query.status, query.eventType, query.subscriptionId, query.pageId, query.brandId, query.createdAfter, query.createdBefore].map((v) => v ?? '*').join(':')}`;
    return toEnvelope(list, await this.searchDeliveries.execute({ tenantId, criteria, ...toListRequest(list, 'whdlv', query) }));
  }

  @Get(':delivery_id')
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read')
  @ApiExtension('x-extension', true)
  @ApiOperation({
    summary: 'Get a delivery with its attempts',
    description:
      'Each attempt with the headers it sent (but the signatures), the status code, the start of an answer that was not a 2xx (at most 2,048 bytes), ' +
      `how long it took, why it failed and when the next one is due. ${EXTENSION}`,
  })
  @ApiOkResponse({ type: WebhookDeliveryDetailResponse })
  @ApiErrors(404)
  get(@TenantId() tenantId: string, @PortalReach() only: readonly string[] | null, @Param('delivery_id') deliveryId: string): Promise<WebhookDeliveryDetailView> {
    return this.getDelivery.execute({ tenantId, deliveryId, only });
  }
}

/** The search's criteria from the query, checked where one field depends on another. */
function criteriaOf(query: SearchDeliveriesQueryDto, only: readonly string[] | null): DeliverySearchCriteria {
  if (query.pageId !== undefined && query.brandId !== undefined) throw ApiError.validation('brandId', 'cannot be given with pageId: a delivery is about one of them');
  const after = query.createdAfter === undefined ? undefined : new Date(query.createdAfter);
  const before = query.createdBefore === undefined ? undefined : new Date(query.createdBefore);
  if (after && before && before.getTime() <= after.getTime()) throw ApiError.validation('createdBefore', 'must be later than createdAfter');
  return {
    status: query.status,
    eventType: query.eventType,
    subscriptionId: query.subscriptionId,
    subjectId: query.pageId ?? query.brandId,
    // Exclusive: the first millisecond after it (ids and times are kept to the millisecond).
    createdFrom: after && new Date(after.getTime() + 1),
    createdBefore: before,
    onlySubscriptions: only,
  };
}
