import { EventType } from '../events/event-catalogue';
import { DeliveryFilter } from './delivery-filter';
import { DeliveryOrdering, DisabledReason } from './subscription-kinds';
import { breakerOpen, EndpointHealth, healthState, HealthState } from './endpoint-health';

/**
 * Webhook subscription (response); `signingSecret` only where the secret is shown (create,
 * rotate). In the domain because the subscription's own events publish it (decisions.md 94, 99).
 */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: EventType[];
  active: boolean;
  /** Attempts per second at most; null for no limit (an extension of the spec). */
  rateLimitPerSecond: number | null;
  /** Which of its kinds' events it gets, by page group or brand; null: all (an extension of the spec). */
  filter: FilterView | null;
  /** `page`: each page's deliveries go one at a time, in order (an extension of the spec). */
  ordering: DeliveryOrdering;
  createdAt: string;
  updatedAt: string;
  signingSecret?: string;
  /** What its attempts say about the receiver (an extension of the spec; docs/webhooks.md, Endpoint health). */
  health: HealthView;
}

export interface FilterView {
  pageGroupIds?: string[];
  brandIds?: string[];
}

export interface HealthView {
  state: HealthState;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  disabledReason: DisabledReason | null;
  /** While failing: when it is turned off if nothing succeeds before; else null. */
  disableAt: string | null;
  /** `open`: its deliveries are held and one probe at a time is sent (docs/webhooks.md, Endpoint health). */
  breaker: 'closed' | 'open';
  /** While the breaker is open: the earliest time of its next probe; else null. */
  nextProbeAt: string | null;
}

/** What the view is made of: a subscription, or a row of the list's query. */
export interface SubscriptionViewSource {
  readonly id: string;
  readonly url: string;
  readonly events: readonly EventType[];
  readonly active: boolean;
  readonly rateLimitPerSecond: number | null;
  readonly filter: DeliveryFilter | null;
  readonly ordering: DeliveryOrdering;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly health: EndpointHealth;
  readonly signingSecret?: string;
}

export function toHealthView(health: EndpointHealth, active: boolean): HealthView {
  const state = healthState(health, active);
  return {
    state,
    consecutiveFailures: health.consecutiveFailures,
    lastSuccessAt: health.lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: health.lastFailureAt?.toISOString() ?? null,
    disabledReason: state === 'disabled' ? health.disabledReason : null,
    disableAt: state === 'failing' ? (health.disableAt?.toISOString() ?? null) : null,
    breaker: breakerOpen(health) ? 'open' : 'closed',
    nextProbeAt: breakerOpen(health) ? (health.nextProbeAt?.toISOString() ?? null) : null,
  };
}

export function toSubscriptionView(subscription: SubscriptionViewSource, withSecret = false): WebhookSubscriptionView {
  return {
    id: subscription.id,
    url: subscription.url,
    events: [...subscription.events],
    active: subscription.active,
    rateLimitPerSecond: subscription.rateLimitPerSecond,
    filter: filterView(subscription.filter),
    ordering: subscription.ordering,
    createdAt: subscription.createdAt.toISOString(),
    updatedAt: subscription.updatedAt.toISOString(),
    ...(withSecret && { signingSecret: subscription.signingSecret }),
    health: toHealthView(subscription.health, subscription.active),
  };
}

function filterView(filter: DeliveryFilter | null): FilterView | null {
  if (filter === null) return null;
  return {
    ...(filter.pageGroupIds && { pageGroupIds: [...filter.pageGroupIds] }),
    ...(filter.brandIds && { brandIds: [...filter.brandIds] }),
  };
}
