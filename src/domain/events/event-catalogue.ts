// The one catalogue of event kinds (decisions.md, Webhooks): subscriptions may name only these,
// OpenAPI and docs/webhooks.md publish them.

export const EVENT_TYPES = ['page.version.created', 'brand.created', 'brand.updated'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return EVENT_TYPES.includes(value as EventType);
}
