import { EventType } from '../../domain/events/event-catalogue';
import { WebhookSubscription } from '../../domain/webhook/webhook-subscription';

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

export function toSubscriptionView(subscription: WebhookSubscription, withSecret = false): WebhookSubscriptionView {
  return {
    id: subscription.id,
    url: subscription.url,
    events: subscription.events,
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
