import { rows } from '../support/platform';
import { createTenant, startTestApp, TestApp } from '../support/test-app';
import { subscriptionBody } from '../support/builders/subscriptions';

// WEBHOOK_MANUAL_PENDING_MAX through the API: with no worker on this database, the manual
// deliveries a tenant asks for stay waiting, so the bound is reached and stays reached.
describe('the bound on a tenant’s manual deliveries waiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_MANUAL_PENDING_MAX: '2' } });
  });
  afterAll(() => t.close());

  it('answers 429 RATE_LIMITED with Retry-After to test and redeliver once it is full, writing nothing; recover queues nothing and says more waits', async () => {
    const tenant = await createTenant(t);
    const created = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody('http://127.0.0.1:9/hooks'));
    const base = `/v0/webhook_subscriptions/${created.body.id}`;
    const sent = [await t.http.post(`${base}/test`).set('x-api-key', tenant.apiKey), await t.http.post(`${base}/test`).set('x-api-key', tenant.apiKey)];
    expect(sent.map((res) => res.status)).toEqual([202, 202]);
    const footprint = () => rows(t, 'SELECT (SELECT count(*)::int FROM outbox_events WHERE tenant_id = ?) AS events, (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = ?) AS deliveries', [tenant.tenantId, tenant.tenantId]);
    const before = await footprint();

    const refusals = [
      await t.http.post(`${base}/test`).set('x-api-key', tenant.apiKey),
      await t.http.post(`${base}/deliveries/${sent[0].body.deliveryId}/redeliver`).set('x-api-key', tenant.apiKey),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.body).toEqual({
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/^At most 2 manual deliveries .* may wait per tenant; retry after 30 s\.$/),
        requestId: expect.stringMatching(/^req_/),
        details: { limit: 2, retryAfterSeconds: 30 },
      });
    }
    expect(await footprint()).toEqual(before);

    // A failed scheduled delivery to recover: no room for it.
    const [{ id: eventId }] = await rows<{ id: string }>(t, 'SELECT event_id AS id FROM webhook_deliveries WHERE id = ?', [sent[0].body.deliveryId]);
    await rows(
      t,
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, created_at, updated_at, finished_at)
       VALUES ('whdlv_01kbcdefghjkmnpqrstvwxyz0', ?, ?, ?, 'webhook.test', 'failed', 5, now(), now(), now())`,
      [tenant.tenantId, created.body.id, eventId],
    );
    const recovered = await t.http.post(`${base}/recover`).set('x-api-key', tenant.apiKey).send({ since: new Date(Date.now() - 60_000).toISOString() });
    expect(recovered.status).toBe(202);
    expect(recovered.body).toEqual({ queued: 0, hasMore: true });

    // Another tenant's room is its own.
    const other = await createTenant(t);
    const theirs = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', other.apiKey).send(subscriptionBody('http://127.0.0.1:9/hooks'));
    expect((await t.http.post(`/v0/webhook_subscriptions/${theirs.body.id}/test`).set('x-api-key', other.apiKey)).status).toBe(202);
  });
});
