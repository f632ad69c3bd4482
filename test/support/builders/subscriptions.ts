import { NewWebhookSubscription } from '../../../src/domain/webhook/webhook-subscription';

/**
 * A subscription's body as a customer sends it to POST /v0/webhook_subscriptions: `url` for
 * `page.version.created`, active, no rate limit. Each test states only what it is about.
 */
export function subscriptionBody(url: string, overrides: Partial<Omit<NewWebhookSubscription, 'tenantId' | 'url'>> = {}): Omit<NewWebhookSubscription, 'tenantId'> {
  return { url, events: ['page.version.created'], ...overrides };
}

/** The same for a use case: the tenant's subscription to a receiver on hooks.example. */
export function aSubscriptionBody(tenantId: string, overrides: Partial<NewWebhookSubscription> = {}): NewWebhookSubscription {
  return { tenantId, ...subscriptionBody('https://hooks.example/landing'), ...overrides };
}

/** The same as the create use case takes it, from a key with full access. */
export function aSubscriptionRequest(tenantId: string, overrides: Partial<NewWebhookSubscription> = {}): NewWebhookSubscription & { grant: null } {
  return { ...aSubscriptionBody(tenantId, overrides), grant: null };
}
