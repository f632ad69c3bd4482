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

/** One read of the event feed: events past a position, in position order, and the position to resume after. */
export interface FeedSlice {
  items: JsonText<EventEnvelope>[];
  /** The position of the last item read, or the one asked after when there was none. */
  position: number;
  hasMore: boolean;
}

/** The tenant's events, each as the exact bytes of its envelope, kept WEBHOOK_RETENTION_DAYS. */
export abstract class EventQueries {
  /** Newest first; only of `type`, only created after `createdAfter`, when given. */
  abstract list(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, page: ListRequest): Promise<ListSlice<JsonText<EventEnvelope>>>;
  /**
   * The feed (decisions.md 142): events past `after` in the order of their positions, which the
   * relay gives in the order their publications commit, so a later read never finds one below a
   * position already read. Only of `type`, only created after `createdAfter`, when given.
   */
  abstract feed(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, after: number, limit: number): Promise<FeedSlice>;
  abstract findById(tenantId: string, id: string): Promise<JsonText<EventEnvelope> | null>;
}
