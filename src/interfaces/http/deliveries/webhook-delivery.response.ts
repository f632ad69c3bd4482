import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DELIVERY_STATUSES, DeliveryAttemptDetailView, DeliveryStatus, WebhookDeliveryDetailView, WebhookDeliveryView } from '../../../application/webhook/deliveries/webhook-delivery.view';
import { ATTEMPT_ERROR_KINDS, AttemptErrorKind } from '../../../domain/webhook/attempt-error';
import { LOGGED_EVENT_TYPES } from '../../../domain/events/event-catalogue';
import { Holds, SameShape } from '../openapi/same-shape';

export class WebhookDeliveryResponse {
  @ApiProperty({ example: 'whdlv_01jdq8x0m2f3e4r5t6y7u8i9o0' }) id!: string;
  @ApiProperty({ example: 'whsub_01jdq8x0m2f3e4r5t6y7u8i9o0' }) subscriptionId!: string;
  @ApiProperty({ example: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0' }) eventId!: string;
  @ApiProperty({ enum: [...LOGGED_EVENT_TYPES] }) eventType!: string;
  @ApiProperty({ type: String, nullable: true, example: 'pagevar_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'The page, brand or subscription the event is about; null for a test event.' })
  subjectId!: string | null;
  @ApiProperty({ enum: DELIVERY_STATUSES, description: '`pending`: to be sent, or retrying; `waiting`: for its page\'s turn; `delivered`, `failed` (retries exhausted or the receiver gone) and `cancelled` are final.' })
  status!: DeliveryStatus;
  @ApiProperty({ enum: ['scheduled', 'manual'], description: '`manual`: asked for by redeliver, recover or test.' }) trigger!: 'scheduled' | 'manual';
  @ApiProperty({ type: String, nullable: true, example: null, description: 'For a redelivery, the delivery it sends again.' }) redeliveryOf!: string | null;
  @ApiProperty({ type: 'integer', example: 1 }) attemptCount!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 204, description: "The last attempt's status code; null before one, or when none came back." }) lastStatusCode!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due; null when none is scheduled (final, held with an open breaker, or waiting).' })
  nextAttemptAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) items!: WebhookDeliveryResponse[];
  @ApiProperty() hasMore!: boolean;
  @ApiPropertyOptional() nextCursor?: string;
}

export class AttemptRequestResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'content-type': 'application/json', 'webhook-id': 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', 'webhook-timestamp': '1764979200' },
    description: 'The headers sent, but the signatures.',
  })
  headers!: Record<string, string>;
  @ApiProperty({ type: [String], example: ['webhook-signature', 'x-webhook-signature-256'], description: 'Headers sent that are not shown: the signatures.' })
  omittedHeaders!: string[];
}

export class DeliveryAttemptDetailResponse {
  @ApiProperty({ example: 'whatt_01jdq8x0m2f3e4r5t6y7u8i9o0' }) id!: string;
  @ApiProperty({ type: 'integer', example: 1 }) attemptNumber!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the request went (its webhook-timestamp).' }) sentAt!: string | null;
  @ApiProperty({ format: 'date-time', description: 'When its outcome was recorded.' }) createdAt!: string;
  @ApiProperty({ type: 'integer', example: 84 }) durationMs!: number;
  @ApiProperty({ type: AttemptRequestResponse, nullable: true, description: 'Null for attempts recorded before requests were kept.' }) request!: AttemptRequestResponse | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 500 }) statusCode!: number | null;
  @ApiProperty({ type: String, enum: ATTEMPT_ERROR_KINDS, nullable: true, description: 'Why it failed: a status that is not 2xx, no answer in time, a failed connection, or a target unreachable or not allowed. Null for a success.' })
  errorKind!: AttemptErrorKind | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why no answer came, in a few words.' }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 2048, example: '{"error":"database unavailable"}', description: 'The start of an answer that was not a 2xx, as text: at most 2,048 bytes. Null for a success or an empty body.' })
  responseExcerpt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
}

export class WebhookDeliveryDetailResponse extends WebhookDeliveryResponse {
  @ApiProperty({ type: [DeliveryAttemptDetailResponse], description: 'Every attempt, oldest first.' }) attempts!: DeliveryAttemptDetailResponse[];
}

export type WebhookDeliveryShape = Holds<SameShape<WebhookDeliveryResponse, WebhookDeliveryView>>;
export type DeliveryAttemptDetailShape = Holds<SameShape<DeliveryAttemptDetailResponse, DeliveryAttemptDetailView>>;
export type WebhookDeliveryDetailShape = Holds<SameShape<WebhookDeliveryDetailResponse, WebhookDeliveryDetailView>>;
