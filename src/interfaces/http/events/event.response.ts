import { ApiProperty } from '@nestjs/swagger';
import { ListResponseOf } from '../pagination/list-response';
import { LOGGED_EVENT_TYPES } from '../../../domain/events/event-catalogue';
import { EventEnvelope } from '../../../application/event/event-queries.port';
import { Holds, SameShape } from '../openapi/same-shape';

export class EventResponse {
  @ApiProperty({ example: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'Also the `webhook-id` of its deliveries.' }) id!: string;
  @ApiProperty({ enum: LOGGED_EVENT_TYPES }) type!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ example: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' }) tenantId!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The event’s payload: see docs/webhooks.md for each type.' }) data!: object;
}

export class EventListResponse extends ListResponseOf(EventResponse) {}

// Tied to the views the controllers send (openapi/same-shape.ts).
export type EventShape = Holds<SameShape<EventResponse, EventEnvelope>>;
