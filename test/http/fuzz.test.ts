import { hash } from 'node:crypto';
import fc from 'fast-check';
import { ID_PREFIXES, newTypeId } from '../../src/domain/shared/type-id';
import { brandBody } from '../support/builders/request-bodies';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { subscriptionBody } from '../support/builders/subscriptions';
import { createLogger } from '../../src/infrastructure/logging/logger';
import { buildOpenApiDocument } from '../../src/interfaces/http/openapi/openapi';
import { PATH_IDS } from '../../src/interfaces/http/validation/path-id.pipe';
import type { Test } from 'supertest';

// Property-based fuzzing of every endpoint with what a hostile client can send: generated bodies
// (a wrong type at any depth, raw text, odd content types), query values, path ids of every
// prefix, and cursors with a valid tag around any last id (the tag's key is public). Property:
// never a 5xx, never an error logged, always the error shape, nothing written by a refusal.
// Fixed seed and 200 runs an endpoint in `npm test`; `FUZZ_RUNS=2000 npm run test:fuzz` for a long
// run with a random seed. A failure prints the seed and the request, ready to send again.
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

let t: TestApp;
let tenant: TestTenant;
let ids: { brand: string; group: string; template: string; subscription: string; delivery: string; page: string; event: string; portalSession: string };
const runsPerEndpoint: Record<string, number> = {};
/** Lines the API logged at error level or above (a 500 logs one). */
const errorsLogged: string[] = [];
const errorLines = () => errorsLogged;

beforeAll(async () => {
  process.stdout.write(`fuzz seed ${SEED}, ${RUNS} runs an endpoint\n`);
  t = await startTestApp({ logger: createLogger('error', 'api', { write: (line: string) => void errorsLogged.push(line) }) });
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
  const portalSession = await t.http.post('/v0/portal_sessions').set('x-api-key', tenant.apiKey).send({ capabilities: ['deliveries:read'], expiresIn: 3600 });
  ids = {
    brand: brand.body.brandId, group: group.pageGroupId, template: template.pageTemplateId, subscription: subscription.body.id, delivery: delivery.id,
    page: page.body.pageId, event: delivery.event, portalSession: portalSession.body.id,
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
            (SELECT count(*) FROM portal_sessions WHERE tenant_id = ?) AS portal_sessions,
            (SELECT string_agg(coalesce(revoked_at::text, '-'), ',' ORDER BY id) FROM portal_sessions WHERE tenant_id = ?) AS portal_revocations,
            (SELECT string_agg(signing_secret_encrypted || previous_signing_secrets::text, ',' ORDER BY id) FROM webhook_subscriptions WHERE tenant_id = ?) AS secrets,
            (SELECT string_agg(updated_at::text, ',' ORDER BY id) FROM brands WHERE tenant_id = ?) AS brand_versions,
            (SELECT string_agg(updated_at::text, ',' ORDER BY id) FROM webhook_subscriptions WHERE tenant_id = ?) AS subscription_versions`,
    Array(13).fill(tenant.tenantId),
  );
  return JSON.stringify(counts[0]);
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const nasty = fc.constantFrom('', ' ', '\u0000', 'a\u0007b', '\ud800', '😀', 'x'.repeat(3000), '#fff', '#GGGGGG', 'javascript:alert(1)', 'https://ok.example', '../../etc', '%00', 'null', '1e400', '__proto__');
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 4 }), nasty, fc.constant(null), fc.integer(), fc.double(), fc.boolean(), fc.array(nasty, { maxLength: 3 }));
/** A well-formed TypeID suffix, chosen by the seed (so a run replays), for any prefix. */
const suffix = fc.stringMatching(/^[0-7][0-9abcdefghjkmnpqrstvwxyz]{25}$/);
const anyPrefixId = fc.tuple(fc.constantFrom(...Object.values(ID_PREFIXES)), suffix).map(([prefix, rest]) => `${prefix}_${rest}`);
const pathId = fc.oneof(
  printable,
  nasty,
  anyPrefixId,
  fc.constantFrom('brand_01jdq8w9k1a2b3c4d5e6f7g8h9', 'page_01jdq8w9k1a2b3c4d5e6f7g8h9', 'pagetemplate_7zzzzzzzzzzzzzzzzzzzzzzzzz', 'whsub_8zzzzzzzzzzzzzzzzzzzzzzzzz', 'BRAND_01JDQ8W9K1A2B3C4D5E6F7G8H9'),
);
/** What a client can put after a cursor's tagged list name: its bytes, UTF-8 or not. */
const hostileLastId = fc.oneof(
  fc.constantFrom('\u0000', 'brand_01jdq8w9k1a2b3c4d5e6f7g8\u0000', '2147483648', '1e21', '-1', '-9007199254740993', '9'.repeat(40), '0', '1.5', '', 'x'.repeat(300), 'x'.repeat(400)).map((text) => Buffer.from(text)),
  fc.constantFrom([0xff, 0xfe], [0xc3], [0x62, 0x72, 0x61, 0x6e, 0x64, 0x5f, 0x80], [0xed, 0xa0, 0x80]).map((bytes) => Buffer.from(bytes)),
  fc.oneof(anyPrefixId, printable, fc.integer().map(String)).map((text) => Buffer.from(text)),
);
/** A cursor with a valid tag around any last id: the tag's key is public, so anyone can make one. */
function forgedCursor(list: string, lastId: Buffer): string {
  const body = Buffer.concat([Buffer.from(`v2.${list}.`), lastId]);
  const tag = hash('sha256', `landing-customer-api/cursor/v1.${body.toString('utf8')}`, 'base64url').slice(0, 22);
  return Buffer.concat([body, Buffer.from(`.${tag}`)]).toString('base64url');
}
const queryValue = fc.oneof(
  printable,
  nasty,
  fc.array(printable, { minLength: 2, maxLength: 3 }),
  fc.constantFrom('0', '1', '100', '101', '-1', '1.5', '1e3', '0x10', ' 5', '20 ', 'draft', 'published', 'system', 'custom', 'day', 'hour', 'brand.created', 'page.version.created'),
  fc.constantFrom('2026-11-01T00:00:00Z', '2026-11-01', '2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', 'Infinity'),
);

/** Every path into a body (`themeLight.logo.url`, `events.0`): each is a place a wrong type can go. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const own = prefix.length > 0 ? [prefix] : [];
  return [...own, ...Object.entries(value).flatMap(([key, inner]) => pathsOf(inner, [...prefix, key]))];
}

function withValueAt(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}

/** A valid body with one part replaced (at any depth), dropped or added: closer to real mistakes than noise. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.record({ path: fc.constantFrom(...pathsOf(valid), ['extra']), value: anyValue }).map(({ path, value }) => withValueAt(valid, path, value)),
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
  /** For a list: the name its cursors are tagged with, for this query and path id (as the controller names it). */
  cursorList?: (query: Query, id: string) => string;
}
type Query = Record<string, string | string[]>;

const ENDPOINTS: Endpoint[] = [
  { name: 'POST /v0/brands', method: 'post', path: () => '/v0/brands', realId: () => '', body: () => brandBody({ themeDark: { borderColor: '#000', favicon: { type: 'url', url: 'https://cdn.example.com/f.ico' } } }) },
  {
    name: 'PATCH /v0/brands/{id}',
    method: 'patch',
    path: (id) => `/v0/brands/${id}`,
    realId: () => ids.brand,
    body: () => ({ name: 'Renamed', companyHomePage: null, themeDark: { borderColor: '#000', logoIcon: { type: 'url', url: 'https://cdn.example.com/i.svg' } } }),
  },
  { name: 'GET /v0/brands', method: 'get', path: () => '/v0/brands', realId: () => '', cursorList: () => 'brands' },
  { name: 'GET /v0/brands/{id}', method: 'get', path: (id) => `/v0/brands/${id}`, realId: () => ids.brand },
  { name: 'GET /v0/page_groups', method: 'get', path: () => '/v0/page_groups', realId: () => '', cursorList: (q) => `page_groups:${q.status ?? '*'}` },
  { name: 'GET /v0/page_groups/{id}/pages', method: 'get', path: (id) => `/v0/page_groups/${id}/pages`, realId: () => ids.group, cursorList: (_, id) => `pages:${id}` },
  { name: 'POST /v0/page_groups/{id}/pages', method: 'post', path: (id) => `/v0/page_groups/${id}/pages`, realId: () => ids.group, body: () => ({ supplementaryContext: 'ctx', pageTemplateId: ids.template }) },
  { name: 'GET /v0/page_groups/{id}', method: 'get', path: (id) => `/v0/page_groups/${id}`, realId: () => ids.group },
  { name: 'GET /v0/page_groups/{id}/pages/{page_id}', method: 'get', path: (id) => `/v0/page_groups/${ids.group}/pages/${id}`, realId: () => ids.page },
  {
    name: 'GET …/pages/{page_id}/versions',
    method: 'get',
    path: (id) => `/v0/page_groups/${ids.group}/pages/${id}/versions`,
    realId: () => ids.page,
    cursorList: (_, id) => `page_versions:${id}`,
  },
  {
    name: 'POST …/pages/{page_id}/versions',
    method: 'post',
    path: (id) => `/v0/page_groups/${ids.group}/pages/${id}/versions`,
    realId: () => ids.page,
    body: () => ({ supplementaryContext: 'v2', pageTemplateId: ids.template }),
  },
  { name: 'GET …/pages/{page_id}/stats', method: 'get', path: (id) => `/v0/page_groups/${ids.group}/pages/${id}/stats`, realId: () => ids.page },
  { name: 'GET /v0/templates', method: 'get', path: () => '/v0/templates', realId: () => '', cursorList: (q) => `templates:${q.type ?? '*'}` },
  { name: 'GET /v0/templates/{id}', method: 'get', path: (id) => `/v0/templates/${id}`, realId: () => ids.template },
  { name: 'GET /v0/events', method: 'get', path: () => '/v0/events', realId: () => '', cursorList: (q) => `events:${q.type ?? '*'}:${q.createdAfter ?? '*'}` },
  { name: 'GET /v0/events/{id}', method: 'get', path: (id) => `/v0/events/${id}`, realId: () => ids.event },
  { name: 'GET /v0/page_groups/{id}/utm_parameters', method: 'get', path: (id) => `/v0/page_groups/${id}/utm_parameters`, realId: () => ids.group },
  { name: 'POST /v0/templates/{id}/duplicate', method: 'post', path: (id) => `/v0/templates/${id}/duplicate`, realId: () => ids.template, body: () => ({ name: 'Copy' }) },
  {
    name: 'POST /v0/webhook_subscriptions',
    method: 'post',
    path: () => '/v0/webhook_subscriptions',
    realId: () => '',
    body: () => subscriptionBody('https://hooks.example.com/x', { active: true, events: ['page.version.created', 'webhook_subscription.failing'], rateLimitPerSecond: 5 }),
  },
  {
    name: 'PATCH /v0/webhook_subscriptions/{id}',
    method: 'patch',
    path: (id) => `/v0/webhook_subscriptions/${id}`,
    realId: () => ids.subscription,
    body: () => ({ active: true, events: ['page.version.created'], rateLimitPerSecond: null }),
  },
  { name: 'GET /v0/webhook_subscriptions', method: 'get', path: () => '/v0/webhook_subscriptions', realId: () => '', cursorList: () => 'webhook_subscriptions' },
  { name: 'GET /v0/webhook_subscriptions/{id}', method: 'get', path: (id) => `/v0/webhook_subscriptions/${id}`, realId: () => ids.subscription },
  { name: 'DELETE /v0/webhook_subscriptions/{id}', method: 'delete', path: (id) => `/v0/webhook_subscriptions/${id}`, realId: () => 'whsub_01jdq8w9k1a2b3c4d5e6f7g8h9' },
  {
    name: 'GET /v0/webhook_subscriptions/{id}/deliveries',
    method: 'get',
    path: (id) => `/v0/webhook_subscriptions/${id}/deliveries`,
    realId: () => ids.subscription,
    cursorList: (_, id) => `deliveries:${id}`,
  },
  {
    name: 'GET /v0/webhook_deliveries',
    method: 'get',
    path: () => '/v0/webhook_deliveries',
    realId: () => '',
    cursorList: (q) => `webhook_deliveries:${[q.status, q.eventType, q.subscriptionId, q.pageId, q.brandId, q.createdAfter, q.createdBefore].map((v) => v ?? '*').join(':')}`,
  },
  { name: 'GET /v0/webhook_deliveries/{id}', method: 'get', path: (id) => `/v0/webhook_deliveries/${id}`, realId: () => ids.delivery },
  { name: 'GET /v0/webhook_subscriptions/{id}/metrics', method: 'get', path: (id) => `/v0/webhook_subscriptions/${id}/metrics`, realId: () => ids.subscription },
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
  {
    name: 'POST /v0/portal_sessions',
    method: 'post',
    path: () => '/v0/portal_sessions',
    realId: () => '',
    body: () => ({ capabilities: ['deliveries:read', 'deliveries:retry'], expiresIn: 3600, allowedOrigins: ['https://app.example.com'], subscriptionIds: [ids.subscription] }),
  },
  { name: 'GET /v0/portal_sessions', method: 'get', path: () => '/v0/portal_sessions', realId: () => '', cursorList: () => 'portal_sessions' },
  { name: 'GET /v0/portal_sessions/{id}', method: 'get', path: (id) => `/v0/portal_sessions/${id}`, realId: () => ids.portalSession },
  { name: 'DELETE /v0/portal_sessions/{id}', method: 'delete', path: (id) => `/v0/portal_sessions/${id}`, realId: () => ids.portalSession },
  { name: 'POST /v0/portal_sessions/exchange', method: 'post', path: () => '/v0/portal_sessions/exchange', realId: () => '', body: () => ({ linkToken: `lpl_${'A'.repeat(43)}` }) },
];

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on lone surrogates). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

/** The query string exactly as sent (a list value repeats its name), so a failure can be replayed as printed. */
function queryString(query: Query): string {
  const pairs = Object.entries(query).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((one) => `${percentEncode(key)}=${percentEncode(one)}`));
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json;charset=',
  'text/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
  '',
];
const RAW_BODIES = ['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}', '{', '[]', '""', '{"a":1,"a":2}', '\ufeff{}', 'null', '{"name":"\\ud800"}'];

/** What a failure prints: enough to send the same request again with curl. */
function replayable(input: { method: string; url: string; headers: Record<string, string>; body?: string }, res?: { status: number; text: string }): string {
  const headers = Object.entries(input.headers).map(([name, value]) => `  ${name}: ${JSON.stringify(value)}`).join('\n');
  const body = input.body === undefined ? '' : `\n  body: ${JSON.stringify(input.body)}`;
  const answer = res ? `\nanswered ${res.status}: ${res.text.slice(0, 500)}` : '';
  return `${input.method.toUpperCase()} ${input.url}\n${headers}${body}${answer}`;
}

describe.each(ENDPOINTS)('fuzzing $name', (endpoint) => {
  it('never answers 5xx, always in the error shape with details.field on validation errors, and writes nothing when it refuses', async () => {
    const request = fc.record({
      id: fc.oneof({ weight: 3, arbitrary: fc.constant('real') }, { weight: 2, arbitrary: pathId }),
      body: endpoint.body
        ? fc.oneof({ weight: 4, arbitrary: mutated(endpoint.body()) }, { weight: 1, arbitrary: printable }, { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) })
        : fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
      rawJson: fc.boolean(),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      query: fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'x', 'limit[]', 'type', 'createdAfter', 'from', 'to', 'interval', 'eventType', 'subscriptionId', 'pageId', 'brandId', 'createdBefore', 'window'), queryValue),
      // On a list: half the runs carry a cursor with a valid tag around a hostile last id (and no
      // other parameter, which could be refused first).
      forged: endpoint.cursorList ? fc.option(hostileLastId, { nil: undefined, freq: 2 }) : fc.constant(undefined),
      idempotencyKey: fc.option(printable, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        runsPerEndpoint[endpoint.name] = (runsPerEndpoint[endpoint.name] ?? 0) + 1;
        const rawId = input.id === 'real' ? endpoint.realId() : input.id;
        // A forged cursor goes with an otherwise valid query, so that it reaches the list's query.
        const query: Query = input.forged === undefined ? { ...input.query } : {};
        if (input.forged !== undefined && endpoint.cursorList) query.cursor = forgedCursor(endpoint.cursorList(query, rawId), input.forged);
        const sent = { method: endpoint.method, url: `${endpoint.path(percentEncode(rawId))}${queryString(query)}`, headers: { 'x-api-key': tenant.apiKey } as Record<string, string>, body: undefined as string | undefined };
        if (input.idempotencyKey !== undefined) sent.headers['Idempotency-Key'] = input.idempotencyKey;
        if (input.body !== undefined && endpoint.method !== 'get') {
          sent.body = typeof input.body === 'string' && input.rawJson ? input.body : JSON.stringify(input.body);
          sent.headers['content-type'] = input.contentType || 'application/json';
        }
        // A GET writes nothing whatever it answers; the footprint is read around the others only.
        const before = endpoint.method === 'get' ? '' : await footprint();
        const errorsBefore = errorLines().length;
        let req = t.http[endpoint.method](sent.url);
        for (const [name, value] of Object.entries(sent.headers)) req = req.set(name, value);
        const res = await (sent.body === undefined ? req : req.send(sent.body));
        try {
          expect(res.status).toBeLessThan(500);
          // A refusal is not news for the logs: nothing at error level (a 500 logs one).
          expect(errorLines().slice(errorsBefore)).toEqual([]);
          if (res.status >= 400) {
            expect(res.body).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), requestId: res.headers['x-request-id'] }));
            if (res.body.code === 'VALIDATION_ERROR') {
              expect(typeof res.body.details?.field).toBe('string');
              expect(res.body.details.field.length).toBeGreaterThan(0);
              expect(typeof res.body.details.reason).toBe('string');
            }
            if (endpoint.method !== 'get') expect(await footprint()).toBe(before);
          }
        } catch (error) {
          throw new Error(`fuzz seed ${SEED}; replay:\n${replayable(sent, res)}\n${(error as Error).message}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 180_000);
});

/**
 * Every path parameter of every operation in the OpenAPI document (so a new route is covered the
 * day it is added), each run: a NUL in any place, an over-long id, another resource's prefix, and
 * a well-formed id in capitals, with real ids in the other parameters. Each is the 404 of an id
 * that does not exist, checked before SQL (decisions.md 179), writing nothing and logging nothing.
 */
describe('hostile ids in every path parameter', () => {
  const realIds = () => ({
    brand_id: ids.brand, page_group_id: ids.group, page_id: ids.page, template_id: ids.template,
    subscription_id: ids.subscription, delivery_id: ids.delivery, event_id: ids.event, portal_session_id: ids.portalSession,
  }) as Record<string, string>;
  const hostile = (prefix: string): string[] => {
    const other = prefix === 'brand' ? 'whsub' : 'brand';
    return [
      '%00', `${prefix}_%00`, `a%00b`, `${prefix}_01jdq8w9k1a2b3c4d5e6f7g8h%00`, `%00${prefix}_01jdq8w9k1a2b3c4d5e6f7g8h9`,
      `${prefix}_${'0'.repeat(300)}`, 'x'.repeat(5000), `${other}_01jdq8w9k1a2b3c4d5e6f7g8h9`, `${prefix.toUpperCase()}_01JDQ8W9K1A2B3C4D5E6F7G8H9`,
      `${prefix}_81jdq8w9k1a2b3c4d5e6f7g8h9`, `${prefix}_01jdq8w9k1a2b3c4d5e6f7g8h9%20`, '%ff%fe',
    ];
  };

  it('answers 404 in the error shape for each, on every operation, writing nothing', async () => {
    const document = buildOpenApiDocument(t.app) as unknown as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
    const sent: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const params = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        for (const param of params) {
          expect({ template, param, known: param in PATH_IDS && param in realIds() }).toEqual({ template, param, known: true });
          for (const bad of hostile(PATH_IDS[param].prefix)) {
            const url = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === param ? bad : realIds()[name]));
            const before = await footprint();
            const errorsBefore = errorLines().length;
            const res = await (t.http as unknown as Record<string, (url: string) => Test>)[method](url).set('x-api-key', tenant.apiKey).set('content-type', 'application/json').send('{}');
            expect({ method, url, status: res.status, code: res.body.code, requestId: res.body.requestId }).toEqual({ method, url, status: 404, code: 'NOT_FOUND', requestId: res.headers['x-request-id'] });
            expect(errorLines().slice(errorsBefore)).toEqual([]);
            expect(await footprint()).toBe(before);
            sent.push(`${method} ${template} ${param}`);
          }
        }
      }
    }
    // Every operation with a path parameter, every parameter: 26 operations of 8 names today.
    expect(new Set(sent.map((s) => s.split(' ').slice(0, 2).join(' '))).size).toBeGreaterThan(20);
    expect(new Set(sent.map((s) => s.split(' ')[2]))).toEqual(new Set(Object.keys(PATH_IDS)));
  }, 180_000);
});
