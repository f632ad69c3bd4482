import { createHmac } from 'node:crypto';
import { HmacWebhookSigner } from '../../../../src/infrastructure/webhooks/hmac-webhook.signer';

// Reference signatures computed the plain way (a string key and a decoded Buffer key, new each
// time): the signer keeps its keys between attempts, and must sign exactly as these do.
const specOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
const standardOf = (secret: string, id: string, timestamp: string, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;

describe('HmacWebhookSigner', () => {
  const secretA = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
  const secretB = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
  const sentAt = new Date('2026-11-23T10:00:00.000Z');
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));

  it('signs each attempt with the secret it is given, also when secrets alternate', () => {
    const signer = new HmacWebhookSigner();
    for (const [secret, body] of [
      [secretA, '{"n":1}'],
      [secretB, '{"n":2}'],
      [secretA, '{"n":3,"text":"é ✓"}'],
      [secretB, '{"n":4}'],
    ]) {
      const headers = signer.headers({ eventId: 'event_1', eventType: 'page.version.created', body, signingSecret: secret, sentAt });
      expect(headers['x-webhook-signature-256']).toBe(specOf(secret, body));
      expect(headers['webhook-signature']).toBe(standardOf(secret, 'event_1', timestamp, body));
      expect(headers['webhook-timestamp']).toBe(timestamp);
    }
  });

  it('gives different signatures for the same body under different secrets', () => {
    const signer = new HmacWebhookSigner();
    const input = { eventId: 'event_1', eventType: 'page.version.created', body: '{}', sentAt };
    const a = signer.headers({ ...input, signingSecret: secretA });
    const b = signer.headers({ ...input, signingSecret: secretB });
    expect(a['x-webhook-signature-256']).not.toBe(b['x-webhook-signature-256']);
    expect(a['webhook-signature']).not.toBe(b['webhook-signature']);
  });

  it('keeps signing correctly past the bound of its key cache', () => {
    const signer = new HmacWebhookSigner();
    const secrets = Array.from({ length: 10_005 }, (_, i) => `whsec_${Buffer.from(`secret-${i}`).toString('base64')}`);
    for (const secret of secrets) signer.headers({ eventId: 'e', eventType: 't', body: '{}', signingSecret: secret, sentAt });
    const first = signer.headers({ eventId: 'e', eventType: 't', body: '{}', signingSecret: secrets[0], sentAt });
    expect(first['x-webhook-signature-256']).toBe(specOf(secrets[0], '{}'));
    expect(first['webhook-signature']).toBe(standardOf(secrets[0], 'e', timestamp, '{}'));
  });
});
