import { createHmac } from 'node:crypto';
import { WebhookSigner } from '../../application/webhook/delivery.ports';

export const USER_AGENT = 'LandingPlatform-Webhooks/1.0 (+https://docs.landing-platform.example/webhooks)';

/**
 * Headers of one attempt (decisions.md, Webhooks):
 * - `X-Webhook-Signature-256: sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the whole
 *   signing secret string (the spec's scheme, as GitHub does it);
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
 *   `<id>.<timestamp>.<body>` keyed with the base64-decoded bytes after `whsec_`, so receivers can
 *   use its libraries and reject replays by timestamp.
 * The id is the event id, the same on every attempt, for receivers to drop duplicates.
 */
export class HmacWebhookSigner extends WebhookSigner {
  headers(input: { eventId: string; eventType: string; body: string; signingSecret: string; sentAt: Date }): Record<string, string> {
    const timestamp = Math.floor(input.sentAt.getTime() / 1000).toString();
    const spec = createHmac('sha256', input.signingSecret).update(input.body, 'utf8').digest('hex');
    const standardKey = Buffer.from(input.signingSecret.replace(/^whsec_/, ''), 'base64');
    const standard = createHmac('sha256', standardKey).update(`${input.eventId}.${timestamp}.${input.body}`, 'utf8').digest('base64');
    return {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-webhook-id': input.eventId,
      'x-webhook-event': input.eventType,
      'x-webhook-signature-256': `sha256=${spec}`,
      'webhook-id': input.eventId,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${standard}`,
    };
  }
}
