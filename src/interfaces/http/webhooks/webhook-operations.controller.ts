import { applyDecorators, Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiExtension, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RecoverDeliveries, RECOVER_MAX_DAYS, RECOVER_MAX_DELIVERIES } from '../../../application/webhook/subscriptions/recover-deliveries.use-case';
import { Redeliver } from '../../../application/webhook/subscriptions/redeliver.use-case';
import { RotateSigningSecret } from '../../../application/webhook/subscriptions/rotate-signing-secret.use-case';
import { SendTestEvent } from '../../../application/webhook/subscriptions/send-test-event.use-case';
import { ManualDelivery } from '../../../application/webhook/subscriptions/delivery-requests.port';
import { WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { ApiErrors } from '../errors/error-responses.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { PortalCapable } from '../guards/portal-capability.decorator';
import type { PortalCapability } from '../../../domain/portal/portal-capability';
import { Grant, TenantId } from '../guards/tenant.decorator';
import type { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import { RecoverDeliveriesDto, RotateSigningSecretDto } from './webhook-operations.dto';
import { CreatedWebhookSubscriptionResponse, ManualDeliveryResponse, RecoveryResponse } from './webhook-subscription.response';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RECEIVE_SCOPES_RULE } from './receive-scopes.description';

const EXTENSION = 'An extension of the spec (docs/webhooks.md, Operating a subscription).';

const MANUAL_BOUND =
  '429 `RATE_LIMITED` with `Retry-After` while the tenant has its bound of manual deliveries (redeliveries, recoveries, test events) waiting ' +
  'to be sent (`WEBHOOK_MANUAL_PENDING_MAX`, 10,000 by default); nothing is written.';

/**
 * One operation on a subscription, as all four are declared: a POST that writes (webhooks:write),
 * open to a portal session with the capability for that subscription, idempotent with a key, and
 * an extension of the spec. Listed in the order a stack of them would apply (bottom first).
 */
function SubscriptionOperation(path: string, capability: PortalCapability, status: 200 | 202) {
  return applyDecorators(
    ApiExtension('x-extension', true),
    Idempotent(),
    HttpCode(status),
    PortalCapable(capability, { subscriptionParam: 'subscription_id' }),
    RequiresScope('webhooks:write'),
    Post(path),
  );
}

/** What a customer does to a subscription's deliveries and secret without asking support. */
@ApiTags('Webhook subscriptions')
@Controller('v0/webhook_subscriptions/:subscription_id')
export class WebhookOperationsController {
  constructor(
    private readonly redeliverOne: Redeliver,
    private readonly recoverDeliveries: RecoverDeliveries,
    private readonly rotateSecret: RotateSigningSecret,
    private readonly sendTestEvent: SendTestEvent,
  ) {}

  @SubscriptionOperation('deliveries/:delivery_id/redeliver', 'deliveries:retry', 202)
  @ApiOperation({
    summary: 'Redeliver a delivery',
    description:
      'One attempt now, outside the retry schedule (which it neither restarts nor extends): the same body and `webhook-id`, a fresh timestamp and ' +
      'signatures. For delivered, failed and exhausted deliveries alike; 409 while an attempt of it is in flight or a redelivery of it waits. ' +
      `Logged with \`trigger: manual\`. ${MANUAL_BOUND} ${RECEIVE_SCOPES_RULE} The delivery's own kind counts too. ${EXTENSION}`,
  })
  @ApiAcceptedResponse({ type: ManualDeliveryResponse })
  @ApiErrors(404, 409)
  redeliver(@TenantId() tenantId: string, @Grant() grant: ApiKeyScopes, @Param('subscription_id') subscriptionId: string, @Param('delivery_id') deliveryId: string): Promise<ManualDelivery> {
    return this.redeliverOne.execute({ tenantId, subscriptionId, deliveryId, grant });
  }

  @SubscriptionOperation('recover', 'deliveries:retry', 202)
  @ApiOperation({
    summary: 'Recover failed deliveries',
    description:
      `Redelivers, oldest first, every delivery created since \`since\` (at most ${RECOVER_MAX_DAYS} days ago) that failed or is still being retried, ` +
      `unless a redelivery of it succeeded or waits: at most ${RECOVER_MAX_DELIVERIES.toLocaleString('en-US')} per request, and no more than the room left ` +
      `under the tenant's bound on manual deliveries waiting (\`hasMore\` says if more remain). ${RECEIVE_SCOPES_RULE} Only deliveries of kinds the key may read are resent. ${EXTENSION}`,
  })
  @ApiBody({ type: RecoverDeliveriesDto })
  @ApiAcceptedResponse({ type: RecoveryResponse })
  @ApiErrors(400, 404, 413, 415)
  recover(@TenantId() tenantId: string, @Grant() grant: ApiKeyScopes, @Param('subscription_id') subscriptionId: string, @Body() body: RecoverDeliveriesDto): Promise<{ queued: number; hasMore: boolean }> {
    return this.recoverDeliveries.execute({ tenantId, subscriptionId, since: new Date(body.since), grant });
  }

  @SubscriptionOperation('rotate_secret', 'secrets:rotate', 200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'Answers the new secret, once. Until the old one expires (`expiresInSeconds`, one day by default), `webhook-signature` carries a `v1,` ' +
      `signature for each valid secret, newest first; \`X-Webhook-Signature-256\` is signed with the newest. ${EXTENSION}`,
  })
  @ApiBody({ type: RotateSigningSecretDto, required: false })
  @ApiOkResponse({ type: CreatedWebhookSubscriptionResponse })
  @ApiErrors(400, 404, 413, 415)
  rotate(@TenantId() tenantId: string, @Param('subscription_id') subscriptionId: string, @Body() body: RotateSigningSecretDto): Promise<WebhookSubscriptionView> {
    return this.rotateSecret.execute({ tenantId, subscriptionId, expiresInSeconds: body?.expiresInSeconds });
  }

  @SubscriptionOperation('test', 'events:test', 202)
  @ApiOperation({
    summary: 'Send a test event',
    description:
      'Delivers a `webhook.test` event to this subscription only, whether or not it lists the kind and whether or not it is active: one attempt, ' +
      `signed like any other, shown in its log and in GET /v0/events. ${MANUAL_BOUND} ${RECEIVE_SCOPES_RULE} ${EXTENSION}`,
  })
  @ApiAcceptedResponse({ type: ManualDeliveryResponse })
  @ApiErrors(404)
  test(@TenantId() tenantId: string, @Grant() grant: ApiKeyScopes, @Param('subscription_id') subscriptionId: string): Promise<ManualDelivery> {
    return this.sendTestEvent.execute({ tenantId, subscriptionId, grant });
  }
}
