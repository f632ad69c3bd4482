// The one catalogue of event kinds (decisions.md, Webhooks): subscriptions may name only these,
// OpenAPI and docs/webhooks.md publish them.

export const EVENT_TYPES = [
  'page.version.created',
  'brand.created',
  'brand.updated',
  // Operational events about a subscription's endpoint (docs/webhooks.md, Endpoint health).
  'webhook_subscription.failing',
  'webhook_subscription.recovered',
  'webhook_subscription.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return EVENT_TYPES.includes(value as EventType);
}

/**
 * The event a customer asks for to try their receiver (POST …/test): delivered to that one
 * subscription only, never subscribed to, so it is not in EVENT_TYPES.
 */
export const TEST_EVENT_TYPE = 'webhook.test' as const;

/** Every kind an event in the log can have: what GET /v0/events may filter on. */
export const LOGGED_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type LoggedEventType = (typeof LOGGED_EVENT_TYPES)[number];
