/**
 * Whether a subscription receives each page's events one at a time, in the order they were made
 * (decisions.md 145, docs/webhooks.md "Ordered delivery"). `none`: every delivery goes as soon as
 * it may. `page`: the next delivery of a page waits until the one before it succeeded, gave up or
 * was cancelled. The kinds apart from the ordering's rules (delivery-ordering.ts), so that the
 * schema and the API's documents name them without importing a policy.
 */
export const DELIVERY_ORDERINGS = ['none', 'page'] as const;
export type DeliveryOrdering = (typeof DELIVERY_ORDERINGS)[number];
