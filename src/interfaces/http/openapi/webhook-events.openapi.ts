import type { OpenAPIObject } from '@nestjs/swagger';
import { SCOPE_TO_RECEIVE } from '../../../domain/api-key/receive-scopes';
import { LoggedEventType } from '../../../domain/events/event-catalogue';
import { ID_PREFIXES } from '../../../domain/shared/type-id';

type SchemaObject = Record<string, unknown>;

const ID = (prefix: string) => ({ type: 'string', pattern: `^${prefix}_[0-9a-z]{26}$`, example: `${prefix}_01jdq8x0m2f3e4r5t6y7u8i9o0` });
const INSTANT = { type: 'string', format: 'date-time' };
/** A health event's data: the subscription's id and health, never its URL (decisions.md 178). */
const HEALTH_DATA = {
  type: 'object',
  required: ['id', 'active', 'health'],
  properties: { id: ID(ID_PREFIXES.webhookSubscription), active: { type: 'boolean' }, health: { $ref: '#/components/schemas/EndpointHealthResponse' } },
};

/** Each event's `data`, by kind: a Record over the catalogue, so a new kind does not compile undocumented. */
const DATA: Record<LoggedEventType, { summary: string; description: string; data: SchemaObject; name: string }> = {
  'page.version.created': {
    name: 'PageVersionCreated',
    summary: 'A page version was created',
    description: 'A page was created (its version 1) or got a new version, through the API or on the platform.',
    data: {
      type: 'object',
      required: ['pageVersionId', 'pageId', 'pageGroupId', 'version', 'createdAt'],
      properties: { pageVersionId: ID(ID_PREFIXES.pageVersion), pageId: ID(ID_PREFIXES.page), pageGroupId: ID(ID_PREFIXES.pageGroup), version: { type: 'integer', minimum: 1 }, createdAt: INSTANT },
    },
  },
  'brand.created': {
    name: 'BrandCreated',
    summary: 'A brand was created',
    description: 'The Brand exactly as POST /v0/brands answered it.',
    data: { $ref: '#/components/schemas/BrandResponse' },
  },
  'brand.updated': {
    name: 'BrandUpdated',
    summary: 'A brand was updated',
    description: 'The Brand exactly as PATCH /v0/brands/{brand_id} answered it.',
    data: { $ref: '#/components/schemas/BrandResponse' },
  },
  'webhook_subscription.failing': {
    name: 'WebhookSubscriptionFailing',
    summary: 'A subscription’s endpoint is failing',
    description:
      'Its breaker opened: WEBHOOK_BREAKER_FAILURES attempts in a row failed, so its deliveries are held and one probe at a time is sent at the retry schedule’s gaps. `data` is the subscription’s id, `active` and health (`disableAt` says when it will be turned off if nothing succeeds), never its URL. Fix the receiver; nothing is lost meanwhile.',
    data: HEALTH_DATA,
  },
  'webhook_subscription.recovered': {
    name: 'WebhookSubscriptionRecovered',
    summary: 'A subscription’s endpoint recovered',
    description: 'An attempt succeeded while its breaker was open: the breaker closed and the held deliveries are sent. `data` is the subscription’s id, `active` and health.',
    data: HEALTH_DATA,
  },
  'webhook_subscription.disabled': {
    name: 'WebhookSubscriptionDisabled',
    summary: 'The platform turned a subscription off',
    description:
      'Its receiver answered 410 Gone (`health.disabledReason: gone`), or it failed with no success for WEBHOOK_DISABLE_AFTER (`failing`). `data` is the subscription’s id, `active` and health. Test the receiver (POST …/test), then turn it back on with PATCH `active: true` and `recover` what failed meanwhile.',
    data: HEALTH_DATA,
  },
  'webhook.test': {
    name: 'WebhookTest',
    summary: 'A test event',
    description: 'Sent on request (POST /v0/webhook_subscriptions/{id}/test) to that subscription only; never subscribed to.',
    data: { type: 'object', required: ['subscriptionId'], properties: { subscriptionId: ID(ID_PREFIXES.webhookSubscription) } },
  },
};

/** The headers of every delivery (docs/webhooks.md, Signatures). */
const HEADERS = [
  ['webhook-id', 'The event id: the same on every attempt and redelivery. Drop duplicates by it.'],
  ['webhook-timestamp', 'Unix seconds when this attempt was signed; refuse one more than 5 minutes from now.'],
  ['webhook-signature', 'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per valid secret (several during a rotation), space-separated.'],
  ['X-Webhook-Signature-256', '`sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the whole secret string, signed with the newest secret.'],
  ['X-Webhook-Id', 'The event id (as `webhook-id`).'],
  ['X-Webhook-Event', 'The event kind (as the body’s `type`).'],
  ['User-Agent', '`LandingPlatform-Webhooks/<version> (…)`'],
].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/** What a key needs to subscribe to a kind, as decided in one place (domain/api-key/receive-scopes.ts). */
function receiveScope(type: LoggedEventType): string {
  const scope = SCOPE_TO_RECEIVE[type];
  if (scope === null) return 'Sent on request to any subscription, whatever its key\'s scopes.';
  return `A scoped key subscribes to it, or changes, redelivers, recovers or tests a subscription listing it, only with \`${scope}\` (or \`${scope.replace(/:read$/, ':write')}\`) or \`events:read\`.`;
}

/**
 * Adds each event's envelope and `data` schemas to the components and describes its delivery in
 * the document's `webhooks` section (OpenAPI 3.1): what a receiver is sent, how it is signed, and
 * what its answers mean.
 */
export function describeWebhooks(document: OpenAPIObject): void {
  const schemas = (document.components!.schemas ??= {}) as Record<string, SchemaObject>;
  const webhooks: Record<string, unknown> = {};
  for (const [type, event] of Object.entries(DATA)) {
    schemas[`${event.name}Event`] = {
      type: 'object',
      description: `The envelope of \`${type}\`: the same bytes on every attempt, and in GET /v0/events/{event_id}.`,
      required: ['id', 'type', 'createdAt', 'tenantId', 'data'],
      properties: { id: ID(ID_PREFIXES.event), type: { type: 'string', enum: [type] }, createdAt: INSTANT, tenantId: ID(ID_PREFIXES.tenant), data: event.data },
    };
    webhooks[type] = {
      post: {
        operationId: `webhook_${event.name}`,
        summary: event.summary,
        description: `${event.description} Sent to each active subscription listing \`${type}\`, signed, retried until a 2xx or the end of the schedule. ${receiveScope(type as LoggedEventType)}`,
        parameters: HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${event.name}Event` } } } },
        responses: {
          '2XX': { description: 'Delivered: nothing more is sent for this event.' },
          '410': { description: 'Gone: this delivery ends without more attempts.' },
          default: { description: 'Any other answer, or none within 10 s: retried on the schedule.' },
        },
        security: [],
      },
    };
  }
  document.webhooks = webhooks as OpenAPIObject['webhooks'];
}
