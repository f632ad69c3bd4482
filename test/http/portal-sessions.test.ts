import { newTypeId } from '../../src/domain/shared/type-id';
import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { MemoryRateLimiter } from '../../src/infrastructure/rate-limit/memory-rate-limiter';
import { PORTAL_CAPABILITIES, PortalCapability } from '../../src/domain/portal/portal-capability';
import { subscriptionBody } from '../support/builders/subscriptions';
import { inContext } from '../support/database';
import { rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Portal sessions (issue 73, decisions.md 186): opened by an API key, opened once by their link,
// then a session token that reaches only the routes its capabilities open, and only its tenant's
// subscriptions it is narrowed to. The worker does not run here.
let t: TestApp;
let tenant: TestTenant;
let other: TestTenant;
let subscriptionId: string;
let otherSubscriptionId: string;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t, 'Portal');
  other = await createTenant(t, 'Portal, another tenant');
  subscriptionId = (await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody('https://hooks.example/portal'))).body.id;
  otherSubscriptionId = (await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody('https://hooks.example/portal-2'))).body.id;
});
afterAll(() => t.close());

const keyWith = async (scopes: string[]) => (await inContext(t.orm, () => t.app.get(CreateApiKey).execute({ tenantId: tenant.tenantId, scopes }))).apiKey;
const open = (body: object, apiKey = tenant.apiKey) => t.http.post('/v0/portal_sessions').set('x-api-key', apiKey).send(body);
const sessionCount = async () => (await rows<{ n: string }>(t, 'SELECT count(*) AS n FROM portal_sessions WHERE tenant_id = ?', [tenant.tenantId]))[0].n;
const linkOf = (url: string) => decodeURIComponent(new URL(url).hash.replace(/^#token=/, ''));

/** A session with these capabilities, its link exchanged: the token the page would carry. */
async function sessionToken(capabilities: PortalCapability[], extra: object = {}): Promise<{ id: string; token: string }> {
  const opened = await open({ capabilities, expiresIn: 3600, ...extra });
  expect(opened.status).toBe(201);
  const exchanged = await t.http.post('/v0/portal_sessions/exchange').send({ linkToken: linkOf(opened.body.url) });
  expect(exchanged.status).toBe(200);
  return { id: opened.body.id, token: exchanged.body.sessionToken };
}

describe('portal sessions', () => {
  it('open with a one-use link in the URL fragment, exchanged once for a session token', async () => {
    const opened = await open({ capabilities: ['deliveries:retry'], expiresIn: 600 });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ capabilities: ['deliveries:read', 'deliveries:retry'], status: 'active', linkUsed: false, subscriptionIds: null, allowedOrigins: null });
    const url = new URL(opened.body.url);
    expect(url.pathname).toBe('/portal');
    expect(url.search).toBe(`?session=${opened.body.id}`);
    expect(url.hash).toMatch(/^#token=lpl_[A-Za-z0-9_-]{43}$/);
    const exchange = () => t.http.post('/v0/portal_sessions/exchange').send({ linkToken: linkOf(opened.body.url) });
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(first.body.sessionToken).toMatch(/^lps_[A-Za-z0-9_-]{43}$/);
    const second = await exchange();
    expect(second.status).toBe(401);
    expect(second.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'used' } });
    const fetched = await t.http.get(`/v0/portal_sessions/${opened.body.id}`).set('x-api-key', tenant.apiKey);
    expect(fetched.body).toMatchObject({ id: opened.body.id, linkUsed: true });
    // The current session, as the page asks for it.
    const current = await t.http.get('/v0/portal_sessions/current').set('authorization', `Bearer ${first.body.sessionToken}`);
    expect(current.status).toBe(200);
    expect(current.body.id).toBe(opened.body.id);
  });

  it('refuse bad input with a 400 naming the field, writing nothing', async () => {
    const before = await sessionCount();
    for (const [body, field] of [
      [{ capabilities: ['deliveries:read'], expiresIn: 299 }, 'expiresIn'],
      [{ capabilities: ['deliveries:read'], expiresIn: 604_801 }, 'expiresIn'],
      [{ capabilities: ['deliveries:read'] }, 'expiresIn'],
      [{ capabilities: ['admin'], expiresIn: 600 }, 'capabilities'],
      [{ capabilities: 'deliveries:read', expiresIn: 600 }, 'capabilities'],
      [{ capabilities: ['deliveries:read'], expiresIn: 600, allowedOrigins: ['http://app.example.com'] }, 'allowedOrigins'],
      [{ capabilities: ['deliveries:read'], expiresIn: 600, allowedOrigins: ['https://app.example.com/embed'] }, 'allowedOrigins'],
      [{ capabilities: ['deliveries:read'], expiresIn: 600, subscriptionIds: ['whsub_01jdq8x0m2f3e4r5t6y7u8i9o0'] }, 'subscriptionIds[0]'],
    ] as const) {
      const res = await open(body);
      expect({ body, status: res.status, code: res.body.code, field: res.body.details?.field ?? res.body.details?.fields?.[0]?.field }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR', field });
    }
    expect(await sessionCount()).toBe(before);
  });

  it("refuse a key whose scopes do not cover the capabilities, naming what it lacks", async () => {
    const readOnlyKey = await keyWith(['webhooks:read', 'events:read']);
    expect((await open({ capabilities: ['deliveries:read'], expiresIn: 600 }, readOnlyKey)).status).toBe(201);
    const refused = await open({ capabilities: ['deliveries:retry'], expiresIn: 600 }, readOnlyKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { missingScopes: ['webhooks:write'] } });
    const noEvents = await open({ capabilities: ['deliveries:read'], expiresIn: 600 }, await keyWith(['webhooks:write']));
    expect(noEvents.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { missingScopes: ['events:read'] } });
  });

  it('stop at once when revoked, and say why', async () => {
    const { id, token } = await sessionToken(['deliveries:read']);
    const list = () => t.http.get('/v0/webhook_subscriptions').set('authorization', `Bearer ${token}`);
    expect((await list()).status).toBe(200);
    const revoked = await t.http.delete(`/v0/portal_sessions/${id}`).set('x-api-key', tenant.apiKey);
    expect(revoked.body).toMatchObject({ id, status: 'revoked' });
    const refused = await list();
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'revoked' } });
    const unknown = await t.http.get('/v0/webhook_subscriptions').set('authorization', `Bearer lps_${'x'.repeat(43)}`);
    expect(unknown.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'unknown' } });
  });

  it("keep a tenant's sessions to itself", async () => {
    const { id } = await sessionToken(['deliveries:read']);
    expect((await t.http.get(`/v0/portal_sessions/${id}`).set('x-api-key', other.apiKey)).status).toBe(404);
    expect((await t.http.delete(`/v0/portal_sessions/${id}`).set('x-api-key', other.apiKey)).status).toBe(404);
    expect((await t.http.get('/v0/portal_sessions').set('x-api-key', other.apiKey)).body.items).toEqual([]);
  });

  it('narrowed to some subscriptions, list only those, and find no other', async () => {
    const { token } = await sessionToken(['deliveries:read'], { subscriptionIds: [subscriptionId] });
    const as = (path: string) => t.http.get(path).set('authorization', `Bearer ${token}`);
    expect((await as('/v0/webhook_subscriptions')).body.items.map((s: { id: string }) => s.id)).toEqual([subscriptionId]);
    expect((await as(`/v0/webhook_subscriptions/${subscriptionId}`)).status).toBe(200);
    expect((await as(`/v0/webhook_subscriptions/${otherSubscriptionId}`)).status).toBe(404);
    expect((await as(`/v0/webhook_subscriptions/${otherSubscriptionId}/deliveries`)).status).toBe(404);
    expect((await as(`/v0/webhook_subscriptions/${otherSubscriptionId}/metrics`)).status).toBe(404);
    expect((await as(`/v0/webhook_deliveries?subscriptionId=${otherSubscriptionId}`)).body.items).toEqual([]);
  });
});

describe('what a portal session may do, capability by operation', () => {
  // Each operation the portal page uses, with the capability that opens it; every other /v0
  // operation is closed to portal sessions whatever they hold.
  const operations: { name: string; capability: PortalCapability | null; send: (token: string) => Promise<{ status: number }> }[] = [
    { name: 'list subscriptions', capability: 'deliveries:read', send: (tk) => t.http.get('/v0/webhook_subscriptions').set('authorization', `Bearer ${tk}`) },
    { name: 'fetch a subscription', capability: 'deliveries:read', send: (tk) => t.http.get(`/v0/webhook_subscriptions/${subscriptionId}`).set('authorization', `Bearer ${tk}`) },
    { name: 'delivery log', capability: 'deliveries:read', send: (tk) => t.http.get(`/v0/webhook_subscriptions/${subscriptionId}/deliveries`).set('authorization', `Bearer ${tk}`) },
    { name: 'search deliveries', capability: 'deliveries:read', send: (tk) => t.http.get('/v0/webhook_deliveries?status=failed').set('authorization', `Bearer ${tk}`) },
    { name: 'fetch a delivery', capability: 'deliveries:read', send: (tk) => t.http.get(`/v0/webhook_deliveries/${newTypeId('whdlv')}`).set('authorization', `Bearer ${tk}`) },
    { name: 'subscription metrics', capability: 'deliveries:read', send: (tk) => t.http.get(`/v0/webhook_subscriptions/${subscriptionId}/metrics`).set('authorization', `Bearer ${tk}`) },
    {
      name: 'recover',
      capability: 'deliveries:retry',
      send: (tk) => t.http.post(`/v0/webhook_subscriptions/${subscriptionId}/recover`).set('authorization', `Bearer ${tk}`).send({ since: new Date(Date.now() - 3_600_000).toISOString() }),
    },
    {
      name: 'redeliver',
      capability: 'deliveries:retry',
      send: (tk) => t.http.post(`/v0/webhook_subscriptions/${subscriptionId}/deliveries/whdlv_01jdq8x0m2f3e4r5t6y7u8i9o0/redeliver`).set('authorization', `Bearer ${tk}`),
    },
    { name: 'send a test event', capability: 'events:test', send: (tk) => t.http.post(`/v0/webhook_subscriptions/${subscriptionId}/test`).set('authorization', `Bearer ${tk}`).send({}) },
    {
      name: 'change a subscription',
      capability: 'subscriptions:manage',
      send: (tk) => t.http.patch(`/v0/webhook_subscriptions/${subscriptionId}`).set('authorization', `Bearer ${tk}`).send({ rateLimitPerSecond: 50 }),
    },
    { name: 'rotate the secret', capability: 'secrets:rotate', send: (tk) => t.http.post(`/v0/webhook_subscriptions/${subscriptionId}/rotate_secret`).set('authorization', `Bearer ${tk}`).send({}) },
    { name: 'list brands', capability: null, send: (tk) => t.http.get('/v0/brands').set('authorization', `Bearer ${tk}`) },
    { name: 'list events', capability: null, send: (tk) => t.http.get('/v0/events').set('authorization', `Bearer ${tk}`) },
    { name: 'open a portal session', capability: null, send: (tk) => t.http.post('/v0/portal_sessions').set('authorization', `Bearer ${tk}`).send({ capabilities: ['deliveries:read'], expiresIn: 600 }) },
  ];

  it.each(PORTAL_CAPABILITIES.map((capability) => [capability]))('a session with %s alone (and reading) reaches exactly its operations', async (capability) => {
    const { token } = await sessionToken([capability]);
    const held = new Set<PortalCapability>(['deliveries:read', capability]);
    for (const operation of operations) {
      const { status } = await operation.send(token);
      const open = operation.capability !== null && held.has(operation.capability);
      expect({ operation: operation.name, refused: status === 403 }).toEqual({ operation: operation.name, refused: !open });
      expect(status).not.toBe(401);
    }
  });
});

describe('exchanging portal links, from one address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    // A window of a day keeps its edge out of the test; a limiter of its own keeps other files' counts out.
    limited = await startTestApp({ env: { RATE_LIMIT_AUTH_FAILURES_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '86400' }, rateLimiter: new MemoryRateLimiter() });
  });
  afterAll(() => limited.close());

  it('counts each refused link against the address, then refuses before any lookup', async () => {
    const exchange = () => limited.http.post('/v0/portal_sessions/exchange').send({ linkToken: `lpl_${'B'.repeat(43)}` });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await exchange()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const refused = await exchange();
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
