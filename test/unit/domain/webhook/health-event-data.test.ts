import { healthEvent } from '../../../../src/domain/webhook/webhook-subscription.events';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';

describe('a health event', () => {
  it("carries the subscription's id, active and health, never its URL or secret", () => {
    const at = new Date('2026-12-06T10:00:00.000Z');
    const subscription = WebhookSubscription.create({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', url: 'https://hooks.example/in?token=s3cret', events: ['page.version.created'] }, 'whsec_x', at);
    for (const change of ['breaker-opened', 'recovered', 'disabled'] as const) {
      const event = healthEvent(change, subscription, at);
      expect(Object.keys(event.data).sort()).toEqual(['active', 'health', 'id']);
      expect(event.data.id).toBe(subscription.id);
      expect(JSON.stringify(event)).not.toMatch(/s3cret|whsec_x|hooks\.example/);
    }
  });
});
