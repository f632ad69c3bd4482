import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { buildOpenApiDocument } from '../../src/interfaces/http/openapi/openapi';
import { subscriptionBody } from '../support/builders/subscriptions';
import { inContext } from '../support/database';
import { rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// A subscription sends each event's whole body to its URL: a scoped key may have it send only what
// that key may read (decisions.md 178). The worker does not run here: what is refused is refused
// before anything is written or queued.
let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t, 'Receive scopes');
});
afterAll(() => t.close());

const keyWith = async (scopes: string[]) => (await inContext(t.orm, () => t.app.get(CreateApiKey).execute({ tenantId: tenant.tenantId, scopes }))).apiKey;
const subscriptions = async () => (await rows<{ id: string; url: string; events: string[] }>(t, 'SELECT id, url, events FROM webhook_subscriptions WHERE tenant_id = ? ORDER BY id', [tenant.tenantId]));
const subscribe = (apiKey: string, events: string[], url = 'https://hooks.example/scoped') =>
  t.http.post('/v0/webhook_subscriptions').set('x-api-key', apiKey).send(subscriptionBody(url, { events }));

describe('what a scoped key may have a subscription send', () => {
  it('refuses a webhooks:write-only key subscribing to brand or page events with 403 naming the scope, writing nothing', async () => {
    const key = await keyWith(['webhooks:write']);
    const before = await subscriptions();
    for (const [events, requiredScope] of [
      [['brand.created'], 'brands:read'],
      [['brand.updated'], 'brands:read'],
      [['page.version.created'], 'pages:read'],
      [['webhook_subscription.failing', 'brand.created', 'brand.updated', 'page.version.created'], 'brands:read'],
    ] as const) {
      const res = await subscribe(key, [...events]);
      expect({ events, status: res.status, body: res.body }).toEqual({
        events,
        status: 403,
        body: {
          code: 'INSUFFICIENT_SCOPE',
          message: `This API key lacks the scope ${requiredScope} (or events:read) to have these events sent to a webhook subscription.`,
          requestId: res.headers['x-request-id'],
          details: { requiredScope, grantedScopes: ['webhooks:write'] },
        },
      });
    }
    expect(await subscriptions()).toEqual(before);
    // Its own health events need only what it holds: webhooks:write includes webhooks:read.
    expect((await subscribe(key, ['webhook_subscription.failing', 'webhook_subscription.disabled'])).status).toBe(201);
  });

  it('lets a key with the read scope of each kind, or events:read, subscribe to them', async () => {
    expect((await subscribe(await keyWith(['webhooks:write', 'brands:read']), ['brand.created', 'brand.updated'])).status).toBe(201);
    expect((await subscribe(await keyWith(['webhooks:write', 'pages:write']), ['page.version.created'])).status).toBe(201);
    expect((await subscribe(await keyWith(['webhooks:write', 'events:read']), ['brand.created', 'page.version.created'])).status).toBe(201);
    expect((await subscribe(tenant.apiKey, ['brand.created', 'page.version.created'])).status).toBe(201);
  });

  it('checks the kinds listed before and after a PATCH, and those of redeliver, recover and test, before writing', async () => {
    const brands = (await subscribe(tenant.apiKey, ['brand.created'], 'https://hooks.example/brands')).body;
    const pagesKey = await keyWith(['webhooks:write', 'pages:read']);
    const path = `/v0/webhook_subscriptions/${brands.id}`;
    // Pointing a brand subscription at a new URL would send brand bodies there.
    const moved = await t.http.patch(path).set('x-api-key', pagesKey).send({ url: 'https://hooks.example/elsewhere' });
    expect([moved.status, moved.body.details]).toEqual([403, { requiredScope: 'brands:read', grantedScopes: ['pages:read', 'webhooks:write'] }]);
    // Nor by switching it to pages first: its brand retries would follow the URL.
    expect((await t.http.patch(path).set('x-api-key', pagesKey).send({ events: ['page.version.created'] })).status).toBe(403);
    // Adding a kind needs that kind's scope too.
    const pages = (await subscribe(pagesKey, ['page.version.created'], 'https://hooks.example/pages')).body;
    const widened = await t.http.patch(`/v0/webhook_subscriptions/${pages.id}`).set('x-api-key', pagesKey).send({ events: ['page.version.created', 'brand.updated'] });
    expect([widened.status, widened.body.details?.requiredScope]).toEqual([403, 'brands:read']);
    expect((await t.http.patch(`/v0/webhook_subscriptions/${pages.id}`).set('x-api-key', pagesKey).send({ url: 'https://hooks.example/pages2' })).status).toBe(200);

    const since = new Date(Date.now() - 3_600_000).toISOString();
    for (const [operation, body] of [['test', undefined], ['recover', { since }], ['deliveries/whdlv_01jdq8w9k1a2b3c4d5e6f7g8h9/redeliver', undefined]] as const) {
      const res = await t.http.post(`${path}/${operation}`).set('x-api-key', pagesKey).send(body);
      expect({ operation, status: res.status, scope: res.body.details?.requiredScope }).toEqual({ operation, status: 403, scope: 'brands:read' });
    }
    expect(await rows(t, 'SELECT id FROM webhook_deliveries WHERE subscription_id = ?', [brands.id])).toEqual([]);
    expect((await subscriptions()).find((s) => s.id === brands.id)).toMatchObject({ url: 'https://hooks.example/brands', events: ['brand.created'] });
    expect((await t.http.post(`${path}/test`).set('x-api-key', await keyWith(['webhooks:write', 'brands:read']))).status).toBe(202);
  });

  it('states the rule and the table in the OpenAPI description of each operation and event kind', () => {
    const document = buildOpenApiDocument(t.app) as unknown as { paths: Record<string, Record<string, { description?: string }>>; webhooks: Record<string, { post: { description: string } }> };
    const operations = [
      document.paths['/v0/webhook_subscriptions'].post,
      document.paths['/v0/webhook_subscriptions/{subscription_id}'].patch,
      document.paths['/v0/webhook_subscriptions/{subscription_id}/test'].post,
      document.paths['/v0/webhook_subscriptions/{subscription_id}/recover'].post,
      document.paths['/v0/webhook_subscriptions/{subscription_id}/deliveries/{delivery_id}/redeliver'].post,
    ];
    for (const operation of operations) expect(operation.description).toContain('`brand.created` → `brands:read`');
    expect(document.webhooks['page.version.created'].post.description).toContain('`pages:read`');
    expect(document.webhooks['webhook_subscription.failing'].post.description).toContain('`webhooks:read`');
  });
});
