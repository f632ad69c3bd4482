// The values a subscription's fields take, apart from the rules that act on them (delivery-ordering.ts,
// endpoint-health.ts), so that the schema and the API's documents name them without importing a policy.

/**
 * Whether a subscription receives each page's events one at a time, in the order they were made
 * (decisions.md 145, docs/webhooks.md "Ordered delivery"). `none`: every delivery goes as soon as
 * it may. `page`: the next delivery of a page waits until the one before it succeeded, gave up or
 * was cancelled.
 */
export const DELIVERY_ORDERINGS = ['none', 'page'] as const;
export type DeliveryOrdering = (typeof DELIVERY_ORDERINGS)[number];

/** Why the platform turned a subscription off: its receiver answered 410, or it failed for too long. */
export const DISABLED_REASONS = ['gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];
