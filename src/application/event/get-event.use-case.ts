import { Injectable } from '@nestjs/common';
import { foundOrFail } from '../shared/found-or-fail';
import { JsonText } from '../shared/json-text';
import { EventEnvelope, EventQueries } from './event-queries.port';

@Injectable()
export class GetEvent {
  constructor(private readonly events: EventQueries) {}

  /** NotFoundError for malformed, foreign and purged ids alike. */
  execute(input: { tenantId: string; eventId: string }): Promise<JsonText<EventEnvelope>> {
    return foundOrFail('event', 'evt', input.eventId, () => this.events.findById(input.tenantId, input.eventId));
  }
}
