import { hmacSha256 } from '../crypto/hmac-sha256';
import { WebhookSigner } from '../../application/webhook/attempt/webhook-signer.port';

export const USER_AGENT = 'LandingPlatform-Webhooks/1.0 (+https://docs.landing-platform.example/webhooks)';

/**
 * Headers of one attempt (decisions.md, Webhooks):
 * - `X-Webhook-Signature-256: sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the whole
 *   signing secret string (the spec's scheme, as GitHub does it);
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
 *   `<id>.<timestamp>.<body>` keyed with the base64-decoded bytes after `whsec_`, so receivers can
 *   use its libraries and reject replays by timestamp.
 * The id is the event id, the same on every attempt, for receivers to drop duplicates.
 * During a secret rotation `webhook-signature` carries one `v1,` signature per valid secret,
 * newest first, space-separated (as Standard Webhooks defines it); `X-Webhook-Signature-256` has
 * room for one and is signed with the newest (decisions.md 82).
 */
type Mac = (message: string) => Buffer;

export class HmacWebhookSigner extends WebhookSigner {
  /**
   * Both MACs of each secret, their key pads made once (hmac-sha256.ts: node's createHmac costs
   * 15 µs a call to key on Node 24, and a worker signs every attempt). Bounded: cleared past
   * 10,000 secrets.
   */
  private readonly keys = new Map<string, { spec: Mac; standard: Mac }>();

  headers(input: { eventId: string; eventType: string; body: string; signingSecret: string; previousSecrets?: string[]; sentAt: Date }): Record<string, string> {
    const timestamp = Math.floor(input.sentAt.getTime() / 1000).toString();
    const spec = this.keysOf(input.signingSecret).spec(input.body).toString('hex');
    const signed = `${input.eventId}.${timestamp}.${input.body}`;
    const standard = [input.signingSecret, ...(input.previousSecrets ?? [])]
      .map((secret) => `v1,${this.keysOf(secret).standard(signed).toString('base64')}`)
      .join(' ');
    return { ...this.shownHeaders(input, timestamp), 'x-webhook-signature-256': `sha256=${spec}`, 'webhook-signature': standard };
  }

  shownHeaders(input: { eventId: string; eventType: string; sentAt: Date }, timestamp = Math.floor(input.sentAt.getTime() / 1000).toString()): Record<string, string> {
    return {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-webhook-id': input.eventId,
      'x-webhook-event': input.eventType,
      'webhook-id': input.eventId,
      'webhook-timestamp': timestamp,
    };
  }

  private keysOf(signingSecret: string): { spec: Mac; standard: Mac } {
    let keys = this.keys.get(signingSecret);
    if (keys === undefined) {
      keys = {
        spec: hmacSha256(Buffer.from(signingSecret, 'utf8')),
        standard: hmacSha256(Buffer.from(signingSecret.replace(/^whsec_/, ''), 'base64')),
      };
      if (this.keys.size >= 10_000) this.keys.clear();
      this.keys.set(signingSecret, keys);
    }
    return keys;
  }
}
