import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RECOVER_MAX_DELIVERIES } from '../../../application/webhook/subscriptions/recover-deliveries.use-case';
import { EVENT_TYPES, LOGGED_EVENT_TYPES } from '../../../domain/events/event-catalogue';
import { DELIVERY_ORDERINGS, DeliveryOrdering } from '../../../domain/webhook/subscription-kinds';
import { HealthView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { DeliveryAttemptView } from '../../../application/webhook/subscriptions/delivery-attempt.view';
import { ManualDelivery } from '../../../application/webhook/subscriptions/delivery-requests.port';
import { Holds, SameShape } from '../openapi/same-shape';

export class EndpointHealthResponse {
  @ApiProperty({ enum: ['healthy', 'failing', 'disabled'], description: 'healthy: no attempt yet, or the last finished attempt succeeded; failing: the last one failed; disabled: the platform turned the subscription off (active is false).' })
  state!: 'healthy' | 'failing' | 'disabled';
  @ApiProperty({ type: 'integer', example: 0, description: 'Finished attempts that failed since the last success, manual ones included.' }) consecutiveFailures!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSuccessAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastFailureAt!: string | null;
  @ApiProperty({ type: String, enum: ['gone', 'failing'], nullable: true, description: 'Why the platform turned it off: a 410 Gone, or failing with no success for WEBHOOK_DISABLE_AFTER. Null unless disabled.' })
  disabledReason!: 'gone' | 'failing' | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'While failing: when it is turned off if no attempt succeeds before. Null otherwise.' }) disableAt!: string | null;
  @ApiProperty({ enum: ['closed', 'open'], description: '`open`: WEBHOOK_BREAKER_FAILURES attempts in a row failed, so deliveries are held and one probe at a time is sent.' })
  breaker!: 'closed' | 'open';
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'While the breaker is open: the earliest time of its next probe. Null otherwise.' }) nextProbeAt!: string | null;
}

export class WebhookSubscriptionFilterResponse {
  @ApiPropertyOptional({ type: [String], example: ['page_01jdq8x0m2f3e4r5t6y7u8i9o0'] }) pageGroupIds?: string[];
  @ApiPropertyOptional({ type: [String], example: ['brand_01jdq8x0m2f3e4r5t6y7u8i9o0'] }) brandIds?: string[];
}

export class WebhookSubscriptionResponse {
  @ApiProperty({ example: 'whsub_01jdq8x0m2f3e4r5t6y7u8i9o0' }) id!: string;
  @ApiProperty({ format: 'uri', example: 'https://hooks.example.com/landing' }) url!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, nullable: true, description: 'Always an array here.' }) events!: string[];
  @ApiProperty() active!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Attempts per second this receiver takes at most, across every worker; null for no limit. An extension of the spec.' })
  rateLimitPerSecond!: number | null;
  @ApiProperty({ type: WebhookSubscriptionFilterResponse, nullable: true, description: 'Which events of its kinds it gets, by page group or brand; null: all of them. An extension of the spec (docs/webhooks.md, Filters).' })
  filter!: WebhookSubscriptionFilterResponse | null;
  @ApiProperty({ enum: [...DELIVERY_ORDERINGS], example: 'none', description: '`page`: each page\'s deliveries go one at a time, in order; `none`: no order. An extension of the spec (docs/webhooks.md, Ordered delivery).' })
  ordering!: DeliveryOrdering;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: EndpointHealthResponse, description: 'What its attempts say about the receiver (docs/webhooks.md, Endpoint health). An extension of the spec.' }) health!: EndpointHealthResponse;
}

export class CreatedWebhookSubscriptionResponse extends WebhookSubscriptionResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signs every delivery. Shown only in this response: store it now.',
  })
  signingSecret!: string;
}

export class WebhookSubscriptionListResponse {
  @ApiProperty({ type: [WebhookSubscriptionResponse] }) items!: WebhookSubscriptionResponse[];
  @ApiProperty() hasMore!: boolean;
  @ApiPropertyOptional() nextCursor?: string;
}

export class DeliveryAttemptResponse {
  @ApiProperty({ example: 'whatt_01jdq8x0m2f3e4r5t6y7u8i9o0' }) id!: string;
  @ApiProperty({ example: 'whdlv_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'What `…/deliveries/{delivery_id}/redeliver` takes.' }) deliveryId!: string;
  @ApiProperty({ enum: ['scheduled', 'manual'], description: '`manual`: an attempt asked for by redeliver, recover or test, outside the retry schedule.' }) trigger!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'For a redelivery, the delivery it sent again.' }) redeliveryOf!: string | null;
  @ApiProperty({ example: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'Also the `X-Webhook-Id` / `webhook-id` header.' }) eventId!: string;
  @ApiProperty({ enum: [...LOGGED_EVENT_TYPES] }) eventType!: string;
  @ApiProperty({ type: 'integer', example: 1 }) attemptNumber!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null when no answer came.' }) statusCode!: number | null;
  @ApiProperty({ type: 'integer' }) durationMs!: number;
  @ApiProperty({ type: String, nullable: true, example: 'no answer within 10000 ms' }) error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due; null when none follows.' }) nextAttemptAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class DeliveryAttemptListResponse {
  @ApiProperty({ type: [DeliveryAttemptResponse] }) items!: DeliveryAttemptResponse[];
  @ApiProperty() hasMore!: boolean;
  @ApiPropertyOptional() nextCursor?: string;
}

export class ManualDeliveryResponse {
  @ApiProperty({ example: 'whdlv_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'The new delivery; its attempt appears in the log with `trigger: manual`.' }) deliveryId!: string;
  @ApiProperty({ example: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'The event sent: its `webhook-id`.' }) eventId!: string;
  @ApiProperty({ type: String, nullable: true, example: 'whdlv_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'The delivery sent again; null for a test event.' }) redeliveryOf!: string | null;
}

const MAX = RECOVER_MAX_DELIVERIES.toLocaleString('en-US');

export class RecoveryResponse {
  @ApiProperty({ type: 'integer', example: 12, description: `Deliveries queued again, at most ${MAX}.` }) queued!: number;
  @ApiProperty({ description: `More remained past the ${MAX}: call again once these are done.` }) hasMore!: boolean;
}

// Tied to the views the controllers send (openapi/same-shape.ts).
// The view carries the secret only when it is created (CreatedWebhookSubscriptionResponse).
export type WebhookSubscriptionShape = Holds<SameShape<WebhookSubscriptionResponse & Partial<Pick<CreatedWebhookSubscriptionResponse, 'signingSecret'>>, WebhookSubscriptionView>>;
export type EndpointHealthShape = Holds<SameShape<EndpointHealthResponse, HealthView>>;
export type DeliveryAttemptShape = Holds<SameShape<DeliveryAttemptResponse, DeliveryAttemptView>>;
export type ManualDeliveryShape = Holds<SameShape<ManualDeliveryResponse, ManualDelivery>>;
export type RecoveryShape = Holds<SameShape<RecoveryResponse, { queued: number; hasMore: boolean }>>;

/**
 * What a subscription's If-Match is about (TagPart): its configuration, what a PATCH changes.
 * Its health and `updatedAt` move with deliveries; a PATCH prepared from a GET must not fail
 * because an attempt ended in between (decisions.md 177).
 */
export function subscriptionConfiguration(view: unknown): unknown {
  const { health: _health, updatedAt: _updatedAt, signingSecret: _secret, ...configuration } = view as WebhookSubscriptionView;
  return configuration;
}
