import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../../../client';
import { HmacWebhookSigner } from '../../../src/infrastructure/webhooks/hmac-webhook.signer';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OLD = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const SENT = new Date('2026-11-25T10:00:00.000Z');
const body = JSON.stringify({ id: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', type: 'page.version.created', createdAt: SENT.toISOString(), tenantId: 'tenant_x', data: { pageId: 'pagevar_x', version: 2 } });
const signed = (secret = SECRET, at = SENT) => new HmacWebhookSigner().headers({ eventId: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', eventType: 'page.version.created', body, signingSecret: secret, sentAt: at });
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.message : `not a verification error: ${String(error)}`;
  }
  return 'accepted';
};

describe('verifyWebhook', () => {
  it('returns the typed event of a delivery signed by the service, with either scheme alone or both', () => {
    const headers = signed();
    const event = verifyWebhook(Buffer.from(body), headers, SECRET, { now: SENT });
    expect(event).toEqual(JSON.parse(body));
    if (event.type === 'page.version.created') expect(event.data.version).toBe(2);
    const { 'x-webhook-signature-256': _spec, ...standardOnly } = headers;
    expect(verifyWebhook(body, standardOnly, SECRET, { now: SENT }).id).toBe(event.id);
    // The legacy header alone only when the receiver says it accepts replays.
    expect(verifyWebhook(body, { 'x-webhook-signature-256': headers['x-webhook-signature-256'] }, SECRET, { now: SENT, allowReplayableLegacySignature: true }).id).toBe(event.id);
    // A Headers object (fetch) works as well as Node's header record.
    expect(verifyWebhook(body, new Headers(headers), SECRET, { now: SENT }).id).toBe(event.id);
  });

  it('accepts a delivery signed with any of the secrets given, and several v1 signatures', () => {
    expect(verifyWebhook(body, signed(OLD), [SECRET, OLD], { now: SENT }).id).toMatch(/^evt_/);
  });

  it('during a rotation, verifies with the old secret alone or the new one alone (the sha256= header has room for the newest only)', () => {
    const rotating = new HmacWebhookSigner().headers({
      eventId: 'evt_01jdq8x0m2f3e4r5t6y7u8i9o0', eventType: 'page.version.created', body, signingSecret: SECRET, previousSecrets: [OLD], sentAt: SENT,
    });
    expect(rotating['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(body, rotating, OLD, { now: SENT }).id).toMatch(/^evt_/);
    expect(verifyWebhook(body, rotating, SECRET, { now: SENT }).id).toMatch(/^evt_/);
    // Without the Standard Webhooks headers only the newest secret can verify.
    const specOnly = { 'x-webhook-signature-256': rotating['x-webhook-signature-256'] };
    expect(refusal(() => verifyWebhook(body, specOnly, OLD, { now: SENT, allowReplayableLegacySignature: true }))).toBe('X-Webhook-Signature-256 does not match');
    expect(refusal(() => verifyWebhook(body, specOnly, SECRET, { now: SENT, allowReplayableLegacySignature: true }))).toBe('accepted');
  });

  it('agrees with the Standard Webhooks library', () => {
    const now = new Date();
    const headers = signed(SECRET, now);
    expect(() => new Webhook(SECRET).verify(body, headers)).not.toThrow();
    const fromLibrary = { 'webhook-id': headers['webhook-id'], 'webhook-timestamp': headers['webhook-timestamp'], 'webhook-signature': new Webhook(SECRET).sign(headers['webhook-id'], now, body) };
    expect(verifyWebhook(body, fromLibrary, SECRET, { now }).id).toBe(headers['webhook-id']);
  });

  it('refuses a wrong secret, a changed body, a stale timestamp, a missing signature and a foreign id', () => {
    const headers = signed();
    expect(refusal(() => verifyWebhook(body, headers, OLD, { now: SENT }))).toBe('webhook-signature does not match');
    expect(refusal(() => verifyWebhook(body.replace('2}', '3}'), headers, SECRET, { now: SENT }))).toBe('webhook-signature does not match');
    const specOnly = { 'x-webhook-signature-256': headers['x-webhook-signature-256'] };
    expect(refusal(() => verifyWebhook(body, specOnly, OLD, { now: SENT, allowReplayableLegacySignature: true }))).toBe('X-Webhook-Signature-256 does not match');
    expect(refusal(() => verifyWebhook(body.replace('2}', '3}'), specOnly, SECRET, { now: SENT, allowReplayableLegacySignature: true }))).toBe('X-Webhook-Signature-256 does not match');
    expect(refusal(() => verifyWebhook(body, headers, SECRET, { now: new Date(SENT.getTime() + 301_000) }))).toBe('webhook-timestamp is too far from now');
    expect(refusal(() => verifyWebhook(body, headers, SECRET, { now: new Date(SENT.getTime() - 301_000) }))).toBe('webhook-timestamp is too far from now');
    expect(refusal(() => verifyWebhook(body, headers, SECRET, { now: new Date(SENT.getTime() + 299_000) }))).toBe('accepted');
    expect(refusal(() => verifyWebhook(body, {}, SECRET, { now: SENT }))).toBe('the delivery carries no signature');
    expect(refusal(() => verifyWebhook(body, headers, [], { now: SENT }))).toBe('no signing secret given');
    const other = new HmacWebhookSigner().headers({ eventId: 'evt_other', eventType: 'page.version.created', body, signingSecret: SECRET, sentAt: SENT });
    const { 'x-webhook-signature-256': _s, ...otherStandard } = other;
    expect(refusal(() => verifyWebhook(body, otherStandard, SECRET, { now: SENT }))).toBe('webhook-id is not the event’s id');
  });

  it('refuses by default a delivery stripped of its webhook-* headers, however old: the sha256= header alone signs no time', () => {
    const headers = signed();
    const stripped = { 'x-webhook-signature-256': headers['x-webhook-signature-256'], 'content-type': 'application/json' };
    // The same bytes a day later: a replay the legacy header cannot tell from the original.
    const dayLater = new Date(SENT.getTime() + 86_400_000);
    expect(refusal(() => verifyWebhook(body, stripped, SECRET, { now: SENT }))).toMatch(/^webhook-signature is missing/);
    expect(refusal(() => verifyWebhook(body, stripped, SECRET, { now: dayLater }))).toMatch(/^webhook-signature is missing/);
    expect(refusal(() => verifyWebhook(body, stripped, SECRET, { now: dayLater, allowReplayableLegacySignature: true }))).toBe('accepted');
    // With the Standard Webhooks headers kept, the replay a day later is refused by its timestamp.
    expect(refusal(() => verifyWebhook(body, headers, SECRET, { now: dayLater }))).toBe('webhook-timestamp is too far from now');
  });
});
