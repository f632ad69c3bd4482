import { Injectable } from '@nestjs/common';
import { LoggedEventType } from '../../domain/events/event-catalogue';
import { JsonText } from '../shared/json-text';
import { ListRequest, ListSlice } from '../shared/pagination';
import { EventEnvelope, EventQueries } from './event-queries.port';

@Injectable()
export class ListEvents {
  constructor(private readonly events: EventQueries) {}

  execute(input: { tenantId: string; type?: LoggedEventType; createdAfter?: Date } & ListRequest): Promise<ListSlice<JsonText<EventEnvelope>>> {
    return this.events.list(input.tenantId, { type: input.type, createdAfter: input.createdAfter }, { limit: input.limit, after: input.after });
  }
}
