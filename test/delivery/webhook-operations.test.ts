import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../client';
import { eventually } from '../support/eventually';
import { platform, rows } from '../support/platform';
import { createTenant, TestApp, TestTenant } from '../support/test-app';
import { verifySpecSignature, WebhookReceiver } from '../support/webhook-receiver';
import { deliveryWorld } from '../support/delivery-world';
import { subscriptionBody } from '../support/builders/subscriptions';

// Redeliver, recover, test and rotate_secret through the API, with the real worker sending to a
// receiver on 127.0.0.1 (retry schedule 100 ms × 4, as in every delivery test).
const receiver = new WebhookReceiver();
const world = deliveryWorld(receiver);
let t: TestApp;
beforeAll(() => {
  t = world.t;
});

interface Subscription {
  id: string;
  signingSecret: string;
}
const base = (s: Subscription) => `/v0/webhook_subscriptions/${s.id}`;

async function subscribe(tenant: TestTenant, body: Record<string, unknown> = {}): Promise<Subscription> {
  const res = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(receiver.url, body));
  expect(res.status).toBe(201);
  return res.body;
}

/** A page (so one page.version.created) and, once the worker made it, the id of its delivery to `s`. */
async function deliveryOfNewPage(tenant: TestTenant, s: Subscription): Promise<string> {
  const scheduled = () => rows<{ id: string }>(t, 'SELECT id FROM webhook_deliveries WHERE subscription_id = ? AND manual_id IS NULL', [s.id]);
  const before = new Set((await scheduled()).map((d) => d.id));
  const group = await platform(t).group(tenant.tenantId);
  expect((await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey)).status).toBe(201);
  const made = await eventually(
    async () => (await scheduled()).filter((d) => !before.has(d.id)),
    (found) => found.length === 1,
  );
  return made[0].id;
}

const statusOf = async (deliveryId: string) => (await rows<{ status: string }>(t, 'SELECT status FROM webhook_deliveries WHERE id = ?', [deliveryId]))[0]?.status;
const finished = (deliveryId: string, status = 'delivered') => eventually(() => statusOf(deliveryId), (s) => s === status);
const log = async (tenant: TestTenant, s: Subscription) => (await t.http.get(`${base(s)}/deliveries`).set('x-api-key', tenant.apiKey)).body.items;

/** Turns back on a subscription a 410 turned off, once the worker has done so. */
async function turnOn(tenant: { apiKey: string }, s: Subscription): Promise<void> {
  await eventually(() => t.http.get(base(s)).set('x-api-key', tenant.apiKey), (res) => res.body.active === false);
  expect((await t.http.patch(base(s)).set('x-api-key', tenant.apiKey).send({ active: true })).status).toBe(200);
}

describe('POST …/deliveries/{delivery_id}/redeliver', () => {
  it('sends the same body and webhook-id again, freshly signed, logged as manual, and leaves the original as it was', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const original = await deliveryOfNewPage(tenant, s);
    await finished(original);
    await receiver.waitFor(1);
    const res = await t.http.post(`${base(s)}/deliveries/${original}/redeliver`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ deliveryId: expect.stringMatching(/^whdlv_/), eventId: receiver.received[0].headers['webhook-id'], redeliveryOf: original });
    await receiver.waitFor(2);
    const [first, again] = receiver.received;
    expect(again.rawBody.equals(first.rawBody)).toBe(true);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(again.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(Number(first.headers['webhook-timestamp']));
    expect(verifyWebhook(again.rawBody, again.headers, s.signingSecret).id).toBe(res.body.eventId);
    await finished(res.body.deliveryId);
    const items = await log(tenant, s);
    expect(items.map((i: { trigger: string; deliveryId: string; redeliveryOf: string | null; attemptNumber: number }) => [i.trigger, i.deliveryId, i.redeliveryOf, i.attemptNumber])).toEqual([
      ['manual', res.body.deliveryId, original, 1],
      ['scheduled', original, null, 1],
    ]);
    expect(await rows(t, 'SELECT status, attempt_count FROM webhook_deliveries WHERE id = ?', [original])).toEqual([{ status: 'delivered', attempt_count: 1 }]);
  });

  it('works for a delivery ended by 410 and for one whose schedule ran out, and for an inactive subscription', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    receiver.script = [410];
    const gone = await deliveryOfNewPage(tenant, s);
    await finished(gone, 'failed');
    // A 410 also turned the subscription off (docs/webhooks.md, Endpoint health): on again.
    const off = await eventually(() => t.http.get(base(s)).set('x-api-key', tenant.apiKey), (res) => res.body.active === false);
    expect(off.body.health).toMatchObject({ state: 'disabled', disabledReason: 'gone' });
    await turnOn(tenant, s);
    receiver.script = [500, 500, 500, 500, 500];
    const exhausted = await deliveryOfNewPage(tenant, s);
    await finished(exhausted, 'failed');
    expect((await t.http.patch(base(s)).set('x-api-key', tenant.apiKey).send({ active: false })).status).toBe(200);
    receiver.received.length = 0;
    for (const id of [gone, exhausted]) {
      const res = await t.http.post(`${base(s)}/deliveries/${id}/redeliver`).set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(202);
      await finished(res.body.deliveryId);
    }
    expect(receiver.received).toHaveLength(2);
    // A failed manual attempt is not retried and ends as failed.
    receiver.fallback = 503;
    const once = await t.http.post(`${base(s)}/deliveries/${gone}/redeliver`).set('x-api-key', tenant.apiKey);
    await finished(once.body.deliveryId, 'failed');
    expect(await rows(t, 'SELECT attempt_number, trigger FROM webhook_delivery_attempts WHERE delivery_id = ?', [once.body.deliveryId])).toEqual([{ attempt_number: 1, trigger: 'manual' }]);
  });

  it('answers 409 while an attempt of the delivery is in flight, and 202 once it has finished', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    receiver.parking = true;
    const id = await deliveryOfNewPage(tenant, s);
    await receiver.waitForParked(1);
    const busy = await t.http.post(`${base(s)}/deliveries/${id}/redeliver`).set('x-api-key', tenant.apiKey);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ code: 'CONFLICT', message: expect.stringContaining(id), details: { deliveryId: id }, requestId: expect.any(String) });
    receiver.releaseParked();
    await finished(id);
    expect((await t.http.post(`${base(s)}/deliveries/${id}/redeliver`).set('x-api-key', tenant.apiKey)).status).toBe(202);
  });

  it('answers 404 for another tenant’s delivery, another subscription’s, and an id that is not one; replays an Idempotency-Key', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const s = await subscribe(tenant);
    const sibling = await subscribe(tenant, { events: ['brand.created'] });
    const id = await deliveryOfNewPage(tenant, s);
    await finished(id);
    for (const [key, path] of [
      [other.apiKey, `${base(s)}/deliveries/${id}/redeliver`],
      [tenant.apiKey, `${base(sibling)}/deliveries/${id}/redeliver`],
      [tenant.apiKey, `${base(s)}/deliveries/whdlv_nope/redeliver`],
    ]) {
      const res = await t.http.post(path).set('x-api-key', key);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const first = await t.http.post(`${base(s)}/deliveries/${id}/redeliver`).set('x-api-key', tenant.apiKey).set('idempotency-key', `redeliver-${id}`);
    const replay = await t.http.post(`${base(s)}/deliveries/${id}/redeliver`).set('x-api-key', tenant.apiKey).set('idempotency-key', `redeliver-${id}`);
    expect([first.status, replay.status]).toEqual([202, 202]);
    expect(replay.body).toEqual(first.body);
    expect(await rows(t, 'SELECT count(*)::int AS n FROM webhook_deliveries WHERE redelivery_of = ?', [id])).toEqual([{ n: 1 }]);
  });
});

describe('POST …/recover', () => {
  it('redelivers what failed since the time and answers how many; asked again, nothing more', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const since = new Date(Date.now() - 1000).toISOString();
    receiver.script = [410];
    const failedOne = await deliveryOfNewPage(tenant, s);
    await finished(failedOne, 'failed');
    await turnOn(tenant, s);
    receiver.script = [410];
    const failedTwo = await deliveryOfNewPage(tenant, s);
    await finished(failedTwo, 'failed');
    await turnOn(tenant, s);
    const delivered = await deliveryOfNewPage(tenant, s);
    await finished(delivered);
    receiver.received.length = 0;
    const res = await t.http.post(`${base(s)}/recover`).set('x-api-key', tenant.apiKey).send({ since });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ queued: 2, hasMore: false });
    await receiver.waitFor(2);
    const redelivered = await eventually(
      () => rows<{ redelivery_of: string; status: string }>(t, 'SELECT redelivery_of, status FROM webhook_deliveries WHERE subscription_id = ? AND manual_id IS NOT NULL ORDER BY redelivery_of', [s.id]),
      (found) => found.every((r) => r.status === 'delivered'),
    );
    expect(redelivered.map((r) => r.redelivery_of).sort()).toEqual([failedOne, failedTwo].sort());
    expect((await t.http.post(`${base(s)}/recover`).set('x-api-key', tenant.apiKey).send({ since })).body).toEqual({ queued: 0, hasMore: false });
  });

  it.each([
    [{}, 'since', 'is required'],
    [{ since: 'yesterday' }, 'since', 'date-time'],
    [{ since: 1764000000 }, 'since', 'must be a string'],
    [{ since: '2026-11-20T00:00:00' }, 'since', 'offset'],
    [{ since: new Date(Date.now() - 31 * 86_400_000).toISOString() }, 'since', 'at most 30 days'],
    [{ since: new Date(Date.now() + 3_600_000).toISOString() }, 'since', 'future'],
  ])('answers 400 for %j, naming the field, and queues nothing', async (body, field, reason) => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const res = await t.http.post(`${base(s)}/recover`).set('x-api-key', tenant.apiKey).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.field).toBe(field);
    expect(res.body.message).toContain(reason);
  });
});

describe('POST …/test', () => {
  it('delivers webhook.test to that subscription only, inactive and not listing it, signed, in its log and in the events', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant, { events: ['brand.created'], active: false });
    const res = await t.http.post(`${base(s)}/test`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ deliveryId: expect.stringMatching(/^whdlv_/), eventId: expect.stringMatching(/^evt_/), redeliveryOf: null });
    await receiver.waitFor(1);
    const [delivery] = receiver.received;
    const event = verifyWebhook(delivery.rawBody, delivery.headers, s.signingSecret);
    expect(event).toEqual({ id: res.body.eventId, type: 'webhook.test', createdAt: expect.any(String), tenantId: tenant.tenantId, data: { subscriptionId: s.id } });
    expect(delivery.headers['x-webhook-event']).toBe('webhook.test');
    await finished(res.body.deliveryId);
    expect((await log(tenant, s))[0]).toMatchObject({ deliveryId: res.body.deliveryId, trigger: 'manual', eventType: 'webhook.test', statusCode: 204 });
    const stored = await t.http.get(`/v0/events/${res.body.eventId}`).set('x-api-key', tenant.apiKey);
    expect(stored.text).toBe(delivery.rawBody.toString('utf8'));
    expect(await rows(t, 'SELECT subscription_id FROM webhook_deliveries WHERE event_id = ?', [res.body.eventId])).toEqual([{ subscription_id: s.id }]);
  });
});

describe('POST …/rotate_secret', () => {
  it('answers a new secret; during the overlap a receiver with either secret verifies (Standard Webhooks), after it only the new one', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const res = await t.http.post(`${base(s)}/rotate_secret`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, signingSecret: expect.stringMatching(/^whsec_/) });
    const rotated = res.body.signingSecret as string;
    expect(rotated).not.toBe(s.signingSecret);
    // Both secrets are stored encrypted: neither appears in the row's text.
    const [stored] = await rows<{ text: string }>(t, 'SELECT row_to_json(w)::text AS text FROM webhook_subscriptions w WHERE id = ?', [s.id]);
    for (const secret of [s.signingSecret, rotated]) expect(stored.text).not.toContain(secret.slice(6));

    await deliveryOfNewPage(tenant, s);
    await receiver.waitFor(1);
    const during = receiver.received[0];
    const body = during.rawBody.toString('utf8');
    const headers = during.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    expect(() => new Webhook(s.signingSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(rotated).verify(body, headers)).not.toThrow();
    expect(verifySpecSignature(during.rawBody, headers['x-webhook-signature-256'], rotated)).toBe(true);

    // The overlap has passed (written as it will be then: the old secret's expiry behind us).
    await rows(t, `UPDATE webhook_subscriptions SET previous_signing_secrets = jsonb_set(previous_signing_secrets, '{0,expiresAt}', to_jsonb(?::text)) WHERE id = ?`, [
      new Date(Date.now() - 1000).toISOString(), s.id,
    ]);
    await deliveryOfNewPage(tenant, s);
    await receiver.waitFor(2);
    const after = receiver.received[1];
    const afterHeaders = after.headers as Record<string, string>;
    expect(afterHeaders['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(s.signingSecret).verify(after.rawBody.toString('utf8'), afterHeaders)).toThrow();
    expect(() => new Webhook(rotated).verify(after.rawBody.toString('utf8'), afterHeaders)).not.toThrow();
  });

  it('with expiresInSeconds 0 signs with the new secret only from the next delivery', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const res = await t.http.post(`${base(s)}/rotate_secret`).set('x-api-key', tenant.apiKey).send({ expiresInSeconds: 0 });
    expect(res.status).toBe(200);
    await deliveryOfNewPage(tenant, s);
    await receiver.waitFor(1);
    const [delivery] = receiver.received;
    expect(() => new Webhook(s.signingSecret).verify(delivery.rawBody.toString('utf8'), delivery.headers as Record<string, string>)).toThrow();
    expect(verifyWebhook(delivery.rawBody, delivery.headers, res.body.signingSecret).id).toBe(delivery.headers['webhook-id']);
  });

  it('after a leak: three rotations, the last with expiresInSeconds 0, and the next delivery carries one signature, the newest', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const rotate = (expiresInSeconds: number) => t.http.post(`${base(s)}/rotate_secret`).set('x-api-key', tenant.apiKey).send({ expiresInSeconds });
    const first = await rotate(3600);
    const second = await rotate(3600);
    const last = await rotate(0);
    expect([first.status, second.status, last.status]).toEqual([200, 200, 200]);
    const [stored] = await rows<{ n: number }>(t, 'SELECT jsonb_array_length(previous_signing_secrets)::int AS n FROM webhook_subscriptions WHERE id = ?', [s.id]);
    expect(stored.n).toBe(0);
    await deliveryOfNewPage(tenant, s);
    await receiver.waitFor(1);
    const [delivery] = receiver.received;
    const headers = delivery.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    for (const leaked of [s.signingSecret, first.body.signingSecret, second.body.signingSecret]) {
      expect(() => new Webhook(leaked).verify(delivery.rawBody.toString('utf8'), headers)).toThrow();
    }
    expect(() => new Webhook(last.body.signingSecret).verify(delivery.rawBody.toString('utf8'), headers)).not.toThrow();
  });

  it('drops an expired old secret from the row at the next PATCH', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    await t.http.post(`${base(s)}/rotate_secret`).set('x-api-key', tenant.apiKey).send({ expiresInSeconds: 3600 });
    await t.http.post(`${base(s)}/rotate_secret`).set('x-api-key', tenant.apiKey).send({ expiresInSeconds: 3600 });
    // The older of the two has expired (written as it will be then).
    await rows(t, `UPDATE webhook_subscriptions SET previous_signing_secrets = jsonb_set(previous_signing_secrets, '{1,expiresAt}', to_jsonb(?::text)) WHERE id = ?`, [
      new Date(Date.now() - 1000).toISOString(), s.id,
    ]);
    const [before] = await rows<{ kept: { expiresAt: string }[] }>(t, 'SELECT previous_signing_secrets AS kept FROM webhook_subscriptions WHERE id = ?', [s.id]);
    expect((await t.http.patch(base(s)).set('x-api-key', tenant.apiKey).send({ active: true })).status).toBe(200);
    const [after] = await rows<{ kept: { expiresAt: string }[] }>(t, 'SELECT previous_signing_secrets AS kept FROM webhook_subscriptions WHERE id = ?', [s.id]);
    expect(after.kept).toEqual([before.kept[0]]);
  });

  it.each([[-1], [604_801], [1.5], ['60'], [null]])('answers 400 for expiresInSeconds %p, naming it, and keeps the secret', async (value) => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const [before] = await rows(t, 'SELECT signing_secret_encrypted FROM webhook_subscriptions WHERE id = ?', [s.id]);
    const res = await t.http.post(`${base(s)}/rotate_secret`).set('x-api-key', tenant.apiKey).send({ expiresInSeconds: value });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('expiresInSeconds');
    expect(await rows(t, 'SELECT signing_secret_encrypted FROM webhook_subscriptions WHERE id = ?', [s.id])).toEqual([before]);
  });
});

describe('the API’s conventions on the new endpoints', () => {
  it.each([
    ['recover', { since: new Date().toISOString() }],
    ['test', undefined],
    ['rotate_secret', { expiresInSeconds: 60 }],
  ])('answers 404 for another tenant’s subscription on …/%s, changing nothing', async (operation, body) => {
    const s = await subscribe(await createTenant(t));
    const footprint = () => rows(t, 'SELECT signing_secret_encrypted, (SELECT count(*)::int FROM webhook_deliveries WHERE subscription_id = ?) AS n FROM webhook_subscriptions WHERE id = ?', [s.id, s.id]);
    const [before] = await footprint();
    const res = await t.http.post(`${base(s)}/${operation}`).set('x-api-key', (await createTenant(t)).apiKey).send(body);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', requestId: expect.any(String) });
    expect(await footprint()).toEqual([before]);
  });

  it('replays rotate_secret, test and recover under one Idempotency-Key (one rotation, one test event), with the rate-limit headers', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant);
    const twice = async (path: string, body?: object) => {
      const send = () => t.http.post(path).set('x-api-key', tenant.apiKey).set('idempotency-key', `key-${path}`).send(body);
      const [first, replay] = [await send(), await send()];
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(first.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      return first.body;
    };
    const rotated = await twice(`${base(s)}/rotate_secret`, { expiresInSeconds: 60 });
    const [stored] = await rows<{ previous: unknown[] }>(t, 'SELECT previous_signing_secrets AS previous FROM webhook_subscriptions WHERE id = ?', [s.id]);
    expect(stored.previous).toHaveLength(1);
    expect(rotated.signingSecret).toMatch(/^whsec_/);
    const test = await twice(`${base(s)}/test`);
    expect(await rows(t, 'SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = ? AND type = ?', [tenant.tenantId, 'webhook.test'])).toEqual([{ n: 1 }]);
    await finished(test.deliveryId);
    expect(await twice(`${base(s)}/recover`, { since: new Date(Date.now() - 60_000).toISOString() })).toEqual({ queued: 0, hasMore: false });
  });
});
