import type { LoggedEventType } from '../events/event-catalogue';
import { newTypeId } from './type-id';

/**
 * Something that happened in the model, recorded by an aggregate and written to the outbox in
 * the same transaction as the change (so a change and its event commit or fail together).
 */
export interface DomainEvent<Data extends object = object> {
  /** `evt_…`, also the webhook delivery's event id. */
  id: string;
  /** A kind from the event catalogue (event-catalogue.ts), e.g. `page.version.created`. */
  type: LoggedEventType;
  tenantId: string;
  occurredAt: Date;
  data: Data;
}

/** The one way an event is made: its id from the time it happened (TypeIDs sort as they were made). */
export function domainEvent<Data extends object>(type: LoggedEventType, tenantId: string, at: Date, data: Data): DomainEvent<Data> {
  return { id: newTypeId('evt', at.getTime()), type, tenantId, occurredAt: at, data };
}
