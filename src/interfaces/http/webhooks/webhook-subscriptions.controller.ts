import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtension, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateWebhookSubscription } from '../../../application/webhook/subscriptions/create-webhook-subscription.use-case';
import { DeleteWebhookSubscription } from '../../../application/webhook/subscriptions/delete-webhook-subscription.use-case';
import { GetWebhookSubscription } from '../../../application/webhook/subscriptions/get-webhook-subscription.use-case';
import { ListDeliveryAttempts } from '../../../application/webhook/subscriptions/list-delivery-attempts.use-case';
import { ListWebhookSubscriptions } from '../../../application/webhook/subscriptions/list-webhook-subscriptions.use-case';
import { UpdateWebhookSubscription } from '../../../application/webhook/subscriptions/update-webhook-subscription.use-case';
import { WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { DeliveryAttemptView } from '../../../application/webhook/subscriptions/delivery-attempt.view';
import { ConditionalRead, ConditionalWrite } from '../conditional/conditional.decorators';
import { IfMatch } from '../conditional/if-match.decorator';
import { Tagged, TaggedAnswer } from '../conditional/tagged-answer.decorator';
import type { Precondition } from '../../../application/shared/precondition';
import { ApiErrors } from '../errors/error-responses.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { PortalCapable } from '../guards/portal-capability.decorator';
import { Grant, PortalReach, TenantId } from '../guards/tenant.decorator';
import type { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { ListEnvelope, toEnvelope } from '../pagination/list-envelope';
import { ListQueryDto } from '../pagination/list-query.dto';
import { toListRequest } from '../pagination/list-request';
import { CreateWebhookSubscriptionDto, UpdateWebhookSubscriptionDto } from './webhook-subscription.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RECEIVE_SCOPES_RULE } from './receive-scopes.description';
import {
  CreatedWebhookSubscriptionResponse,
  DeliveryAttemptListResponse,
  WebhookSubscriptionListResponse,
  WebhookSubscriptionResponse,
  subscriptionConfiguration,
} from './webhook-subscription.response';

const EXTENSION = 'An extension of the spec: every integrator needs it.';

@ApiTags('Webhook subscriptions')
@Controller('v0/webhook_subscriptions')
export class WebhookSubscriptionsController {
  constructor(
    private readonly createSubscription: CreateWebhookSubscription,
    private readonly updateSubscription: UpdateWebhookSubscription,
    private readonly getSubscription: GetWebhookSubscription,
    private readonly listSubscriptions: ListWebhookSubscriptions,
    private readonly deleteSubscription: DeleteWebhookSubscription,
    private readonly listAttempts: ListDeliveryAttempts,
  ) {}

  @Post()
  @RequiresScope('webhooks:write')
  @PortalCapable('subscriptions:manage', { unnarrowed: true })
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({ summary: 'Create a webhook subscription', description: `The response is the only place the signing secret is ever shown. ${RECEIVE_SCOPES_RULE}` })
  @ApiBody({ type: CreateWebhookSubscriptionDto })
  @ApiCreatedResponse({ type: CreatedWebhookSubscriptionResponse })
  @ApiErrors(400, 413, 415)
  create(@TenantId() tenantId: string, @Grant() grant: ApiKeyScopes, @Body() body: CreateWebhookSubscriptionDto): Promise<WebhookSubscriptionView> {
    return this.createSubscription.execute({ tenantId, grant, url: body.url, events: body.events, active: body.active, rateLimitPerSecond: body.rateLimitPerSecond, filter: body.filter, ordering: body.ordering });
  }

  @Patch(':subscription_id')
  @RequiresScope('webhooks:write')
  @PortalCapable('subscriptions:manage', { subscriptionParam: 'subscription_id' })
  @ConditionalWrite()
  @ApiOperation({ summary: 'Update a webhook subscription', description: `Fields left out keep their value. The secret is not returned. ${RECEIVE_SCOPES_RULE} The kinds listed before and after the change both count.` })
  @ApiBody({ type: UpdateWebhookSubscriptionDto })
  @ApiOkResponse({ type: WebhookSubscriptionResponse })
  @ApiErrors(400, 404, 413, 415)
  async update(
    @TenantId() tenantId: string,
    @Grant() grant: ApiKeyScopes,
    @Param('subscription_id') subscriptionId: string,
    @Body() body: UpdateWebhookSubscriptionDto,
    @IfMatch(subscriptionConfiguration) precondition: Precondition<object> | undefined,
    @Tagged(subscriptionConfiguration) answer: TaggedAnswer,
  ): Promise<string | undefined> {
    const changes = { url: body.url, events: body.events, active: body.active, rateLimitPerSecond: body.rateLimitPerSecond, filter: body.filter, ordering: body.ordering };
    return answer(await this.updateSubscription.execute({ tenantId, subscriptionId, changes, precondition, grant }));
  }

  @Get()
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read')
  @ApiExtension('x-extension', true)
  @ApiOperation({ summary: 'List webhook subscriptions', description: `Newest first. ${EXTENSION}` })
  @ApiOkResponse({ type: WebhookSubscriptionListResponse })
  @ApiErrors(400)
  async list(@TenantId() tenantId: string, @PortalReach() only: readonly string[] | null, @Query() query: ListQueryDto): Promise<ListEnvelope<WebhookSubscriptionView>> {
    return toEnvelope('webhook_subscriptions', await this.listSubscriptions.execute({ tenantId, only, ...toListRequest('webhook_subscriptions', 'whsub', query) }));
  }

  @Get(':subscription_id')
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read', { subscriptionParam: 'subscription_id' })
  @ConditionalRead()
  @ApiExtension('x-extension', true)
  @ApiOperation({ summary: 'Fetch a webhook subscription', description: `Without the secret. ${EXTENSION}` })
  @ApiOkResponse({ type: WebhookSubscriptionResponse })
  @ApiErrors(404)
  async get(@TenantId() tenantId: string, @Param('subscription_id') subscriptionId: string, @Tagged(subscriptionConfiguration) answer: TaggedAnswer): Promise<string | undefined> {
    return answer(await this.getSubscription.execute({ tenantId, subscriptionId }));
  }

  @Delete(':subscription_id')
  @RequiresScope('webhooks:write')
  @PortalCapable('subscriptions:manage', { subscriptionParam: 'subscription_id' })
  @ConditionalWrite()
  @HttpCode(204)
  @ApiExtension('x-extension', true)
  @ApiOperation({ summary: 'Delete a webhook subscription', description: `Deliveries still pending for it are cancelled. ${EXTENSION}` })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(404)
  async remove(@TenantId() tenantId: string, @Param('subscription_id') subscriptionId: string, @IfMatch(subscriptionConfiguration) precondition: Precondition<object> | undefined): Promise<void> {
    await this.deleteSubscription.execute({ tenantId, subscriptionId, precondition });
  }

  @Get(':subscription_id/deliveries')
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read', { subscriptionParam: 'subscription_id' })
  @ApiExtension('x-extension', true)
  @ApiOperation({ summary: 'Delivery attempts of a subscription', description: `Every attempt, newest first: status code, duration, error, next attempt. ${EXTENSION}` })
  @ApiOkResponse({ type: DeliveryAttemptListResponse })
  @ApiErrors(400, 404)
  async deliveries(@TenantId() tenantId: string, @Param('subscription_id') subscriptionId: string, @Query() query: ListQueryDto): Promise<ListEnvelope<DeliveryAttemptView>> {
    const list = `deliveries:${subscriptionId}`;
    return toEnvelope(list, await this.listAttempts.execute({ tenantId, subscriptionId, ...toListRequest(list, 'whatt', query) }));
  }
}
