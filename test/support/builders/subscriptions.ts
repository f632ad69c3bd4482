import { NewWebhookSubscription } from '../../../src/domain/webhook/webhook-subscription';

/**
 * A subscription's body as a customer sends it (POST /v0/webhook_subscriptions, without the
 * tenant for HTTP tests): a receiver on hooks.example for `page.version.created`, active, no rate
 * limit. Each test states only what it is about.
 */
export function aSubscriptionBody(tenantId: string, overrides: Partial<NewWebhookSubscription> = {}): NewWebhookSubscription {
  return { tenantId, url: 'https://hooks.example/landing', events: ['page.version.created'], ...overrides };
}
