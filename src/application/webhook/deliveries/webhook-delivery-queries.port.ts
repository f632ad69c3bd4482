import { ListRequest, ListSlice } from '../../shared/pagination';
import { DeliverySearchCriteria, WebhookDeliveryView } from './webhook-delivery.view';

/** An attempt as the log keeps it: its times are times. */
export interface StoredDeliveryAttempt {
  id: string;
  attemptNumber: number;
  sentAt: Date | null;
  createdAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: Date | null;
}

/** The attempts of one hour (or a whole window) of a subscription, as the log counts them. */
export interface AttemptCounts {
  /** The hour's start; null for the whole window. */
  hour: Date | null;
  attempts: number;
  succeeded: number;
  /** Durations in ms at the 50th, 95th and 99th percentile (nearest rank); null with no attempt. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** The tenant's deliveries and their attempts, read for people and REST clients (never for sending). */
export abstract class WebhookDeliveryQueries {
  /** Deliveries made before `now` that match, newest first. */
  abstract search(tenantId: string, criteria: DeliverySearchCriteria, page: ListRequest, now: Date): Promise<ListSlice<WebhookDeliveryView>>;
  /** One delivery of the tenant's with every attempt, oldest first; null when there is none. */
  abstract one(tenantId: string, deliveryId: string): Promise<{ delivery: WebhookDeliveryView; attempts: StoredDeliveryAttempt[] } | null>;
  /** The subscription's attempts recorded in [from, to): one row per hour that had any, and the window's. */
  abstract attemptCounts(tenantId: string, subscriptionId: string, from: Date, to: Date): Promise<AttemptCounts[]>;
}
