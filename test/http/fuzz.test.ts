import fc from 'fast-check';
import { newTypeId } from '../../src/domain/shared/type-id';
import { brandBody } from '../support/builders/request-bodies';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { subscriptionBody } from '../support/builders/subscriptions';

// Property-based fuzzing of every endpoint with generated bodies, queries, headers and path ids.
// Fixed seed and bounded runs in `npm test`; `FUZZ_RUNS=2000 npm run test:fuzz` for a long run.
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

let t: TestApp;
let tenant: TestTenant;
let ids: { brand: string; group: string; template: string; subscription: string; delivery: string; page: string; event: string };
const runsPerEndpoint: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t, 'Fuzz tenant');
  const p = platform(t);
  const template = await p.systemTemplate('Fuzz template');
  const group = await p.group(tenant.tenantId, { pageTemplateId: template.pageTemplateId });
  const brand = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody());
  const subscription = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody('https://hooks.example.com/f'));
  // A failed delivery to redeliver (no worker runs here: a redelivery stays a queued row).
  const delivery = { event: newTypeId('evt'), id: newTypeId('whdlv') };
  await rows(t, `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at) VALUES (?, ?, 'page.version.created', '{}', now(), now())`, [delivery.event, tenant.tenantId]);
  await rows(
    t,
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, 'page.version.created', 'failed', 5, now(), now(), now())`,
    [delivery.id, tenant.tenantId, subscription.body.id, delivery.event],
  );
  const page = await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).send({});
  ids = {
    brand: brand.body.brandId, group: group.pageGroupId, template: template.pageTemplateId, subscription: subscription.body.id, delivery: delivery.id,
    page: page.body.pageId, event: delivery.event,
  };
});
afterAll(async () => {
  process.stdout.write(`fuzz runs per endpoint (seed ${SEED}): ${JSON.stringify(runsPerEndpoint)}\n`);
  await t.close();
});

/** Everything a rejected request must leave as it was, for the fuzz tenant. */
async function footprint(): Promise<string> {
  const counts = await rows<Record<string, string>>(
    t,
    `SELECT (SELECT count(*) FROM brands WHERE tenant_id = ?) AS brands,
            (SELECT count(*) FROM pages WHERE tenant_id = ?) AS pages,
            (SELECT count(*) FROM page_versions WHERE tenant_id = ?) AS versions,
            (SELECT count(*) FROM templates WHERE tenant_id = ?) AS templates,
            (SELECT count(*) FROM webhook_subscriptions WHERE tenant_id = ?) AS subscriptions,
            (SELECT count(*) FROM outbox_events WHERE tenant_id = ?) AS events,
            (SELECT count(*) FROM idempotency_keys WHERE tenant_id = ?) AS idempotency,
            (SELECT count(*) FROM webhook_deliveries WHERE tenant_id = ?) AS deliveries,
            (SELECT string_agg(signing_secret_encrypted || previous_signing_secrets::text, ',' ORDER BY id) FROM webhook_subscriptions WHERE tenant_id = ?) AS secrets,
            (SELECT string_agg(updated_at::text, ',' ORDER BY id) FROM brands WHERE tenant_id = ?) AS brand_versions,
            (SELECT string_agg(updated_at::text, ',' ORDER BY id) FROM webhook_subscriptions WHERE tenant_id = ?) AS subscription_versions`,
    Array(11).fill(tenant.tenantId),
  );
  return JSON.stringify(counts[0]);
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const nasty = fc.constantFrom('', ' ', '\u0000', 'a\u0007b', '\ud800', '😀', 'x'.repeat(3000), '#fff', '#GGGGGG', 'javascript:alert(1)', 'https://ok.example', '../../etc', '%00', 'null', '1e400', '__proto__');
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 4 }), nasty, fc.constant(null), fc.integer(), fc.double(), fc.boolean(), fc.array(nasty, { maxLength: 3 }));
const pathId = fc.oneof(
  printable,
  nasty,
  fc.constantFrom('brand_01jdq8w9k1a2b3c4d5e6f7g8h9', 'page_01jdq8w9k1a2b3c4d5e6f7g8h9', 'pagetemplate_7zzzzzzzzzzzzzzzzzzzzzzzzz', 'whsub_8zzzzzzzzzzzzzzzzzzzzzzzzz', 'BRAND_01JDQ8W9K1A2B3C4D5E6F7G8H9'),
);

/** A valid body with one part replaced, dropped or added: closer to real mistakes than noise. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.record({ key: fc.constantFrom(...keys, 'extra', 'themeLight.borderColor'), value: anyValue }).map(({ key, value }) => {
      const copy = structuredClone(valid);
      if (key === 'themeLight.borderColor') (copy.themeLight as Record<string, unknown>) = { borderColor: value };
      else copy[key] = value;
      return copy;
    }),
    fc.constantFrom(...keys).map((key) => {
      const copy = structuredClone(valid);
      delete copy[key];
      return copy;
    }),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

interface Endpoint {
  name: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: (id: string) => string;
  realId: () => string;
  body?: () => Record<string, unknown>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'POST /v0/brands', method: 'post', path: () => '/v0/brands', realId: () => '', body: () => brandBody() },
  { name: 'PATCH /v0/brands/{id}', method: 'patch', path: (id) => `/v0/brands/${id}`, realId: () => ids.brand, body: () => ({ name: 'Renamed', themeDark: { borderColor: '#000' } }) },
  { name: 'GET /v0/brands', method: 'get', path: () => '/v0/brands', realId: () => '' },
  { name: 'GET /v0/brands/{id}', method: 'get', path: (id) => `/v0/brands/${id}`, realId: () => ids.brand },
  { name: 'GET /v0/page_groups', method: 'get', path: () => '/v0/page_groups', realId: () => '' },
  { name: 'GET /v0/page_groups/{id}/pages', method: 'get', path: (id) => `/v0/page_groups/${id}/pages`, realId: () => ids.group },
  { name: 'POST /v0/page_groups/{id}/pages', method: 'post', path: (id) => `/v0/page_groups/${id}/pages`, realId: () => ids.group, body: () => ({ supplementaryContext: 'ctx', pageTemplateId: ids.template }) },
  { name: 'GET /v0/page_groups/{id}', method: 'get', path: (id) => `/v0/page_groups/${id}`, realId: () => ids.group },
  { name: 'GET /v0/page_groups/{id}/pages/{page_id}', method: 'get', path: (id) => `/v0/page_groups/${ids.group}/pages/${id}`, realId: () => ids.page },
  { name: 'GET …/pages/{page_id}/versions', method: 'get', path: (id) => `/v0/page_groups/${ids.group}/pages/${id}/versions`, realId: () => ids.page },
  {
    name: 'POST …/pages/{page_id}/versions',
    method: 'post',
    path: (id) => `/v0/page_groups/${ids.group}/pages/${id}/versions`,
    realId: () => ids.page,
    body: () => ({ supplementaryContext: 'v2', pageTemplateId: ids.template }),
  },
  { name: 'GET …/pages/{page_id}/stats', method: 'get', path: (id) => `/v0/page_groups/${ids.group}/pages/${id}/stats`, realId: () => ids.page },
  { name: 'GET /v0/templates', method: 'get', path: () => '/v0/templates', realId: () => '' },
  { name: 'GET /v0/templates/{id}', method: 'get', path: (id) => `/v0/templates/${id}`, realId: () => ids.template },
  { name: 'GET /v0/events', method: 'get', path: () => '/v0/events', realId: () => '' },
  { name: 'GET /v0/events/{id}', method: 'get', path: (id) => `/v0/events/${id}`, realId: () => ids.event },
  { name: 'GET /v0/page_groups/{id}/utm_parameters', method: 'get', path: (id) => `/v0/page_groups/${id}/utm_parameters`, realId: () => ids.group },
  { name: 'POST /v0/templates/{id}/duplicate', method: 'post', path: (id) => `/v0/templates/${id}/duplicate`, realId: () => ids.template, body: () => ({ name: 'Copy' }) },
  { name: 'POST /v0/webhook_subscriptions', method: 'post', path: () => '/v0/webhook_subscriptions', realId: () => '', body: () => subscriptionBody('https://hooks.example.com/x', { active: true }) },
  { name: 'PATCH /v0/webhook_subscriptions/{id}', method: 'patch', path: (id) => `/v0/webhook_subscriptions/${id}`, realId: () => ids.subscription, body: () => ({ active: true }) },
  { name: 'GET /v0/webhook_subscriptions', method: 'get', path: () => '/v0/webhook_subscriptions', realId: () => '' },
  { name: 'GET /v0/webhook_subscriptions/{id}', method: 'get', path: (id) => `/v0/webhook_subscriptions/${id}`, realId: () => ids.subscription },
  { name: 'DELETE /v0/webhook_subscriptions/{id}', method: 'delete', path: (id) => `/v0/webhook_subscriptions/${id}`, realId: () => 'whsub_01jdq8w9k1a2b3c4d5e6f7g8h9' },
  { name: 'GET /v0/webhook_subscriptions/{id}/deliveries', method: 'get', path: (id) => `/v0/webhook_subscriptions/${id}/deliveries`, realId: () => ids.subscription },
  {
    name: 'POST /v0/webhook_subscriptions/{id}/deliveries/{delivery_id}/redeliver',
    method: 'post',
    path: (id) => `/v0/webhook_subscriptions/${ids.subscription}/deliveries/${id}/redeliver`,
    realId: () => ids.delivery,
  },
  {
    name: 'POST /v0/webhook_subscriptions/{id}/recover',
    method: 'post',
    path: (id) => `/v0/webhook_subscriptions/${id}/recover`,
    realId: () => ids.subscription,
    body: () => ({ since: new Date(Date.now() - 3_600_000).toISOString() }),
  },
  { name: 'POST /v0/webhook_subscriptions/{id}/test', method: 'post', path: (id) => `/v0/webhook_subscriptions/${id}/test`, realId: () => ids.subscription },
  {
    name: 'POST /v0/webhook_subscriptions/{id}/rotate_secret',
    method: 'post',
    path: (id) => `/v0/webhook_subscriptions/${id}/rotate_secret`,
    realId: () => ids.subscription,
    body: () => ({ expiresInSeconds: 60 }),
  },
];

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on lone surrogates). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/xml', ''];

describe.each(ENDPOINTS)('fuzzing $name', (endpoint) => {
  it('never answers 5xx, always in the error shape with details.field on validation errors, and writes nothing when it refuses', async () => {
    const request = fc.record({
      id: fc.oneof({ weight: 3, arbitrary: fc.constant('real') }, { weight: 2, arbitrary: pathId }),
      body: endpoint.body ? fc.oneof({ weight: 3, arbitrary: mutated(endpoint.body()) }, { weight: 1, arbitrary: printable }) : fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
      rawJson: fc.boolean(),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      query: fc.dictionary(
        fc.constantFrom('limit', 'cursor', 'status', 'x', 'limit[]', 'type', 'createdAfter', 'from', 'to', 'interval'),
        fc.oneof(printable, fc.constantFrom('0', '1', '100', '101', '-1', '1.5', 'draft', 'published', 'system', 'day', 'hour', 'brand.created', '2026-11-01T00:00:00Z', '2026-11-01')),
      ),
      idempotencyKey: fc.option(printable, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        runsPerEndpoint[endpoint.name] = (runsPerEndpoint[endpoint.name] ?? 0) + 1;
        const id = input.id === 'real' ? endpoint.realId() : percentEncode(input.id);
        const before = await footprint();
        let req = t.http[endpoint.method](endpoint.path(id)).query(input.query).set('x-api-key', tenant.apiKey);
        if (input.idempotencyKey !== undefined) req = req.set('Idempotency-Key', input.idempotencyKey);
        if (input.body !== undefined && endpoint.method !== 'get') {
          const text = typeof input.body === 'string' && input.rawJson ? input.body : JSON.stringify(input.body);
          req = req.set('content-type', input.contentType || 'application/json').send(text);
        }
        const res = await req;
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), requestId: res.headers['x-request-id'] }));
          if (res.body.code === 'VALIDATION_ERROR') {
            expect(typeof res.body.details?.field).toBe('string');
            expect(res.body.details.field.length).toBeGreaterThan(0);
            expect(typeof res.body.details.reason).toBe('string');
          }
          expect(await footprint()).toBe(before);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
