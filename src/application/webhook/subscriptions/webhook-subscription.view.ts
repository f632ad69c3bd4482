import { EventType } from '../../../domain/events/event-catalogue';
import { StateOf } from '../../../domain/shared/aggregate-root';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';

/** Webhook subscription (response); `signingSecret` only in the create response. */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: EventType[];
  active: boolean;
  /** Attempts per second at most; null for no limit (an extension of the spec). */
  rateLimitPerSecond: number | null;
  createdAt: string;
  updatedAt: string;
  signingSecret?: string;
}

/** What the view is made of: a subscription, or a row of the list's query. */
export type SubscriptionViewSource = Pick<StateOf<WebhookSubscription>, 'id' | 'url' | 'events' | 'active' | 'rateLimitPerSecond' | 'createdAt' | 'updatedAt'>;

export function toSubscriptionView(subscription: SubscriptionViewSource & { signingSecret?: string }, withSecret = false): WebhookSubscriptionView {
  return {
    id: subscription.id,
    url: subscription.url,
    events: [...subscription.events],
    active: subscription.active,
    rateLimitPerSecond: subscription.rateLimitPerSecond,
    createdAt: subscription.createdAt.toISOString(),
    updatedAt: subscription.updatedAt.toISOString(),
    ...(withSecret && { signingSecret: subscription.signingSecret }),
  };
}

/** One attempt in a subscription's delivery log (an extension of the spec). */
export interface DeliveryAttemptView {
  id: string;
  deliveryId: string;
  /** `manual` for an attempt a customer asked for (redeliver, recover, test). */
  trigger: 'scheduled' | 'manual';
  /** The delivery a manual attempt sent again; null otherwise. */
  redeliveryOf: string | null;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** An attempt as the log keeps it: its times are times. */
export type DeliveryAttemptRecord = Omit<DeliveryAttemptView, 'nextAttemptAt' | 'createdAt'> & { nextAttemptAt: Date | null; createdAt: Date };

export function toDeliveryAttemptView(attempt: DeliveryAttemptRecord): DeliveryAttemptView {
  return { ...attempt, nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null, createdAt: attempt.createdAt.toISOString() };
}
