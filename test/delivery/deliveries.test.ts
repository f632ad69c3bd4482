import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../../client';
import { brandBody } from '../support/builders/request-bodies';
import { eventually } from '../support/eventually';
import { platform, rows } from '../support/platform';
import { createTenant, TestApp, TestTenant } from '../support/test-app';
import { verifySpecSignature, WebhookReceiver } from '../support/webhook-receiver';
import { deliveryWorld } from '../support/delivery-world';
import { subscriptionBody } from '../support/builders/subscriptions';

const receiver = new WebhookReceiver();
const world = deliveryWorld(receiver);
let t: TestApp;
beforeAll(() => {
  t = world.t;
});

async function subscribe(tenant: TestTenant, url = receiver.url, active = true): Promise<{ id: string; signingSecret: string; createdAt: string }> {
  const res = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(url, { active }));
  expect(res.status).toBe(201);
  return res.body;
}

async function newPage(tenant: TestTenant): Promise<{ pageId: string; pageGroupId: string }> {
  const group = await platform(t).group(tenant.tenantId);
  const res = await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey);
  expect(res.status).toBe(201);
  return res.body;
}

const attemptsOf = (subscriptionId: string) =>
  rows<{ attempt_number: number; status_code: number | null; error: string | null }>(t, 'SELECT attempt_number, status_code, error FROM webhook_delivery_attempts WHERE subscription_id = ? ORDER BY attempt_number', [subscriptionId]);
const deliveryOf = async (subscriptionId: string) =>
  (await rows<{ status: string; attempt_count: number }>(t, 'SELECT status, attempt_count FROM webhook_deliveries WHERE subscription_id = ?', [subscriptionId]))[0];

describe('webhook deliveries', () => {
  it("delivers to a subscription filtered on page groups only its groups' page.version.created", async () => {
    const tenant = await createTenant(t);
    const [first, second] = [await platform(t).group(tenant.tenantId), await platform(t).group(tenant.tenantId)];
    const filtered = async (path: string, pageGroupIds: string[] | null) => {
      const res = await t.http
        .post('/v0/webhook_subscriptions')
        .set('x-api-key', tenant.apiKey)
        .send({ url: `${receiver.url}/${path}`, events: ['page.version.created'], ...(pageGroupIds && { filter: { pageGroupIds } }) });
      expect(res.status).toBe(201);
      expect(res.body.filter).toEqual(pageGroupIds && { pageGroupIds });
    };
    await filtered('first', [first.pageGroupId]);
    await filtered('second', [second.pageGroupId]);
    await filtered('both', [first.pageGroupId, second.pageGroupId]);
    await filtered('all', null);
    for (const group of [first, second, first]) await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201);
    // 2 + 1 + 3 + 3: every delivery made, the unfiltered ones last to be counted.
    await receiver.waitFor(9);
    const groupsAt = (path: string) => receiver.received.filter((d) => d.path.endsWith(`/${path}`)).map((d) => d.body.data.pageGroupId).sort();
    expect(groupsAt('first')).toEqual([first.pageGroupId, first.pageGroupId]);
    expect(groupsAt('second')).toEqual([second.pageGroupId]);
    expect(groupsAt('both')).toEqual([first.pageGroupId, first.pageGroupId, second.pageGroupId].sort());
    expect(groupsAt('all')).toHaveLength(3);
    // None was made to be cancelled later: the relay chose.
    expect(await rows(t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = ?", [tenant.tenantId])).toEqual([{ n: 9 }]);
  });

  it('delivers page.version.created after a page is created, signed for the spec, GitHub and Standard Webhooks verifiers', async () => {
    const tenant = await createTenant(t);
    const subscription = await subscribe(tenant);
    const page = await newPage(tenant);
    await receiver.waitFor(1);
    const [delivery] = receiver.received;

    expect(delivery.body).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      type: 'page.version.created',
      createdAt: expect.any(String),
      tenantId: tenant.tenantId,
      data: { pageVersionId: expect.stringMatching(/^pagever_/), pageId: page.pageId, pageGroupId: page.pageGroupId, version: 1, createdAt: expect.any(String) },
    });
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-id': delivery.body.id,
      'x-webhook-event': 'page.version.created',
      'webhook-id': delivery.body.id,
      'user-agent': expect.stringMatching(/^LandingPlatform-Webhooks\//),
    });
    expect(verifySpecSignature(delivery.rawBody, delivery.headers['x-webhook-signature-256'], subscription.signingSecret)).toBe(true);
    // GitHub's verifier is ESM-only: loaded as such.
    const { verify: octokitVerify } = await import('@octokit/webhooks-methods');
    expect(await octokitVerify(subscription.signingSecret, delivery.rawBody.toString('utf8'), delivery.headers['x-webhook-signature-256'] as string)).toBe(true);
    const standard = new Webhook(subscription.signingSecret);
    expect(standard.verify(delivery.rawBody.toString('utf8'), {
      'webhook-id': delivery.headers['webhook-id'] as string,
      'webhook-timestamp': delivery.headers['webhook-timestamp'] as string,
      'webhook-signature': delivery.headers['webhook-signature'] as string,
    })).toEqual(delivery.body);

    // A tampered body or a missing or foreign signature fails verification.
    const tampered = Buffer.from(delivery.rawBody.toString('utf8').replace('"version":1', '"version":2'));
    expect(verifySpecSignature(tampered, delivery.headers['x-webhook-signature-256'], subscription.signingSecret)).toBe(false);
    expect(verifySpecSignature(delivery.rawBody, undefined, subscription.signingSecret)).toBe(false);
    expect(verifySpecSignature(delivery.rawBody, (delivery.headers['x-webhook-signature-256'] as string).slice(7), subscription.signingSecret)).toBe(false);
    expect(() => standard.verify(tampered.toString('utf8'), delivery.headers as Record<string, string>)).toThrow();

    const log = await eventually(
      () => t.http.get(`/v0/webhook_subscriptions/${subscription.id}/deliveries`).set('x-api-key', tenant.apiKey),
      (res) => res.body.items?.length === 1,
    );
    expect(log.body.items[0]).toMatchObject({ eventId: delivery.body.id, eventType: 'page.version.created', attemptNumber: 1, statusCode: 204, error: null, nextAttemptAt: null });
  });

  it('delivers brand and page events that the typed client’s verifyWebhook accepts, typed, and only with the right secret', async () => {
    const tenant = await createTenant(t);
    const res = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send({ url: receiver.url, events: ['brand.created', 'brand.updated', 'page.version.created'] });
    const secret: string = res.body.signingSecret;
    const brand = (await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody()).expect(201)).body;
    await t.http.patch(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey).send({ name: 'Renamed' }).expect(200);
    const group = await platform(t).group(tenant.tenantId);
    await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201);
    await receiver.waitFor(3);
    const events = receiver.received.map((delivery) => verifyWebhook(delivery.rawBody, delivery.headers, [`whsec_${Buffer.alloc(32, 1).toString('base64')}`, secret]));
    expect(events.map((e) => e.type).sort()).toEqual(['brand.created', 'brand.updated', 'page.version.created']);
    for (const event of events) {
      if (event.type === 'brand.created') expect(event.data).toEqual(brand);
      if (event.type === 'brand.updated') expect(event.data.name).toBe('Renamed');
      if (event.type === 'page.version.created') expect(event.data).toMatchObject({ pageGroupId: group.pageGroupId, version: 1 });
    }
    const [first] = receiver.received;
    expect(() => verifyWebhook(first.rawBody, first.headers, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(Buffer.concat([first.rawBody, Buffer.from(' ')]), first.headers, secret)).toThrow(WebhookVerificationError);
    // A real delivery stripped of its webhook-* headers (a replay that drops the timestamp) is refused by default.
    const stripped = Object.fromEntries(Object.entries(first.headers).filter(([name]) => !name.startsWith('webhook-')));
    expect(() => verifyWebhook(first.rawBody, stripped, secret)).toThrow(/^webhook-signature is missing/);
    expect(verifyWebhook(first.rawBody, stripped, secret, { allowReplayableLegacySignature: true }).id).toBe(first.headers['webhook-id']);
  });

  it('delivers the event of a version made on the platform side, with its number', async () => {
    const tenant = await createTenant(t);
    await subscribe(tenant);
    const page = await newPage(tenant);
    await receiver.waitFor(1);
    const version = await platform(t).version(tenant.tenantId, page.pageId);
    await receiver.waitFor(2);
    expect(receiver.received[1].body.data).toMatchObject({ pageId: page.pageId, version: 2, pageVersionId: version.pageVersionId });
  });

  it('sends nothing to an inactive subscription or to another tenant’s, and signs for each subscription with its own secret', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const second = new WebhookReceiver();
    await second.start();
    try {
      const a = await subscribe(tenant);
      const b = await subscribe(tenant, second.url);
      const inactive = await subscribe(tenant, receiver.url, false);
      const foreign = await subscribe(other);
      await newPage(tenant);
      await Promise.all([receiver.waitFor(1), second.waitFor(1)]);
      const [toA, toB] = [receiver.received[0], second.received[0]];
      expect(toA.body.id).toBe(toB.body.id);
      expect(verifySpecSignature(toA.rawBody, toA.headers['x-webhook-signature-256'], a.signingSecret)).toBe(true);
      expect(verifySpecSignature(toB.rawBody, toB.headers['x-webhook-signature-256'], b.signingSecret)).toBe(true);
      expect(toA.headers['x-webhook-signature-256']).not.toBe(toB.headers['x-webhook-signature-256']);
      // The relay fans an event out to every matching subscription in one transaction: no
      // delivery row for the other two means nothing will ever be sent to them.
      expect(await rows(t, 'SELECT id FROM webhook_deliveries WHERE subscription_id IN (?, ?)', [inactive.id, foreign.id])).toEqual([]);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  it('retries 500, 500, then 204: delivered on the third attempt, three attempts recorded', async () => {
    const tenant = await createTenant(t);
    const subscription = await subscribe(tenant);
    receiver.script = [500, 500];
    await newPage(tenant);
    await receiver.waitFor(3);
    const attempts = await eventually(() => attemptsOf(subscription.id), (a) => a.length === 3);
    expect(attempts.map((a) => [a.attempt_number, a.status_code])).toEqual([[1, 500], [2, 500], [3, 204]]);
    expect(await deliveryOf(subscription.id)).toEqual({ status: 'delivered', attempt_count: 3 });
    expect(new Set(receiver.received.map((r) => r.rawBody.toString()))).toEqual(new Set([receiver.received[0].rawBody.toString()]));
  });

  it('stops after 410 Gone: one attempt, the delivery failed, nothing more', async () => {
    const tenant = await createTenant(t);
    const subscription = await subscribe(tenant);
    receiver.script = [410];
    await newPage(tenant);
    await eventually(() => deliveryOf(subscription.id), (d) => d?.status === 'failed');
    expect(await attemptsOf(subscription.id)).toEqual([{ attempt_number: 1, status_code: 410, error: null }]);
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps trying while the receiver is down and delivers once it is back', async () => {
    const tenant = await createTenant(t);
    const down = new WebhookReceiver();
    await down.start();
    const port = down.port;
    const subscription = await subscribe(tenant, down.url);
    await down.stop();
    await newPage(tenant);
    const failed = await eventually(() => attemptsOf(subscription.id), (a) => a.length >= 1);
    expect(failed[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^connection failed/) });
    await down.start(port);
    try {
      await down.waitFor(1);
      await eventually(() => deliveryOf(subscription.id), (d) => d?.status === 'delivered');
    } finally {
      await down.stop();
    }
  });

  it('gives up when the schedule is used up: five attempts for four delays', async () => {
    const tenant = await createTenant(t);
    const subscription = await subscribe(tenant);
    receiver.fallback = 503;
    await newPage(tenant);
    await eventually(() => deliveryOf(subscription.id), (d) => d?.status === 'failed');
    expect((await attemptsOf(subscription.id)).map((a) => a.status_code)).toEqual([503, 503, 503, 503, 503]);
    // The subscription stays on (a platform turns it off only at a 410 or after WEBHOOK_DISABLE_AFTER),
    // and its health says the endpoint is failing.
    const after = await eventually(
      () => t.http.get(`/v0/webhook_subscriptions/${subscription.id}`).set('x-api-key', tenant.apiKey),
      (res) => res.body.health.consecutiveFailures === 5,
    );
    expect(after.body).toMatchObject({ active: true, health: { state: 'failing', disabledReason: null } });
  });

  it('cancels what is pending when the subscription is deactivated', async () => {
    const tenant = await createTenant(t);
    const subscription = await subscribe(tenant);
    receiver.fallback = 500;
    await newPage(tenant);
    await receiver.waitFor(1);
    await t.http.patch(`/v0/webhook_subscriptions/${subscription.id}`).set('x-api-key', tenant.apiKey).send({ active: false });
    const delivery = await eventually(() => deliveryOf(subscription.id), (d) => d?.status === 'cancelled' || d?.status === 'failed');
    expect(delivery.status).toBe('cancelled');
  });
});
