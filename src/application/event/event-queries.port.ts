import { LoggedEventType } from '../../domain/events/event-catalogue';
import { JsonText } from '../shared/json-text';
import { ListRequest, ListSlice } from '../shared/pagination';

/** An event as it was delivered: the webhook envelope (docs/webhooks.md). */
export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  tenantId: string;
  data: object;
}

/** The tenant's events, each as the exact bytes of its envelope, kept WEBHOOK_RETENTION_DAYS. */
export abstract class EventQueries {
  /** Newest first; only of `type`, only created after `createdAfter`, when given. */
  abstract list(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, page: ListRequest): Promise<ListSlice<JsonText<EventEnvelope>>>;
  abstract findById(tenantId: string, id: string): Promise<JsonText<EventEnvelope> | null>;
}
