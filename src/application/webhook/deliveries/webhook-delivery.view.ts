import type { AttemptErrorKind } from '../../../domain/webhook/attempt-error';

/** A delivery's status (decisions.md 187): `waiting` for its page's turn, the last three final. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'waiting', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery of an event to one subscription, as the delivery search lists it (an extension of the spec). */
export interface WebhookDeliveryView {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** The page, brand or subscription the event is about; null for the test event. */
  subjectId: string | null;
  status: DeliveryStatus;
  /** `manual`: asked for by redeliver, recover or test. */
  trigger: 'scheduled' | 'manual';
  redeliveryOf: string | null;
  attemptCount: number;
  lastStatusCode: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** One attempt of a delivery, with what was sent and what came back. */
export interface DeliveryAttemptDetailView {
  id: string;
  attemptNumber: number;
  /** When the request went (its webhook-timestamp); null for attempts recorded before this was kept. */
  sentAt: string | null;
  /** When its outcome was recorded. */
  createdAt: string;
  durationMs: number;
  request: { headers: Record<string, string>; omittedHeaders: string[] } | null;
  statusCode: number | null;
  errorKind: AttemptErrorKind | null;
  error: string | null;
  /** The start of an answer that was not a 2xx, as text, at most 2,048 bytes; null otherwise. */
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
}

export interface WebhookDeliveryDetailView extends WebhookDeliveryView {
  attempts: DeliveryAttemptDetailView[];
}

/** What the search may narrow by; every field optional but the tenant's, which the caller gives. */
export interface DeliverySearchCriteria {
  status?: DeliveryStatus;
  eventType?: string;
  subscriptionId?: string;
  subjectId?: string;
  createdFrom?: Date;
  createdBefore?: Date;
  /** A portal session narrowed to some subscriptions sees only theirs. */
  onlySubscriptions?: readonly string[] | null;
}
