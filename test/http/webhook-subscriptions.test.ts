import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { subscriptionBody } from '../support/builders/subscriptions';
import { brandBody } from '../support/builders/request-bodies';

let t: TestApp;
let strict: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // The production setting: callback URLs on private addresses are refused.
  strict = await startTestApp({ orm: t.orm, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
});
afterAll(async () => {
  await strict.close();
  await t.close();
});

const create = (tenant: TestTenant, body: unknown, app = t) => app.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(body as object);
const valid = subscriptionBody('https://hooks.example.com/landing');

describe('POST /v0/webhook_subscriptions', () => {
  it('creates an active subscription and shows its signing secret this once', async () => {
    const tenant = await createTenant(t);
    const res = await create(tenant, valid);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'url', 'events', 'active', 'rateLimitPerSecond', 'filter', 'ordering', 'createdAt', 'updatedAt', 'signingSecret', 'health']);
    expect(res.body.health).toEqual({ state: 'healthy', consecutiveFailures: 0, lastSuccessAt: null, lastFailureAt: null, disabledReason: null, disableAt: null, breaker: 'closed', nextProbeAt: null });
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^whsub_[0-9a-z]{26}$/), url: valid.url, events: valid.events, active: true });
    expect(res.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.signingSecret.slice(6), 'base64')).toHaveLength(32);

    const fetched = await t.http.get(`/v0/webhook_subscriptions/${res.body.id}`).set('x-api-key', tenant.apiKey);
    expect(fetched.body).not.toHaveProperty('signingSecret');
    const listed = await t.http.get('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey);
    expect(listed.body.items.map((s: any) => s.id)).toEqual([res.body.id]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('keeps the secret encrypted at rest: the row holds AES-GCM ciphertext, never the secret', async () => {
    const tenant = await createTenant(t);
    const res = await create(tenant, valid);
    const [row] = await rows<Record<string, unknown>>(t, 'SELECT * FROM webhook_subscriptions WHERE id = ?', [res.body.id]);
    expect(JSON.stringify(row)).not.toContain(res.body.signingSecret.slice(6));
    expect(row.signing_secret_encrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('takes a rate limit per second (or null for none), shows it on GET and the list, and PATCH changes or removes it', async () => {
    const tenant = await createTenant(t);
    const limited = (await create(tenant, { ...valid, rateLimitPerSecond: 5 })).body;
    expect(limited.rateLimitPerSecond).toBe(5);
    expect((await create(tenant, { ...valid, rateLimitPerSecond: null })).body.rateLimitPerSecond).toBeNull();
    expect((await create(tenant, valid)).body.rateLimitPerSecond).toBeNull();
    const path = `/v0/webhook_subscriptions/${limited.id}`;
    expect((await t.http.get(path).set('x-api-key', tenant.apiKey)).body.rateLimitPerSecond).toBe(5);
    const list = (await t.http.get('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey)).body.items;
    expect(list.map((s: { rateLimitPerSecond: number | null }) => s.rateLimitPerSecond)).toEqual([null, null, 5]);
    expect((await t.http.patch(path).set('x-api-key', tenant.apiKey).send({ rateLimitPerSecond: 10_000 })).body.rateLimitPerSecond).toBe(10_000);
    expect((await t.http.patch(path).set('x-api-key', tenant.apiKey).send({ active: false })).body.rateLimitPerSecond).toBe(10_000);
    expect((await t.http.patch(path).set('x-api-key', tenant.apiKey).send({ rateLimitPerSecond: null })).body.rateLimitPerSecond).toBeNull();
    expect((await t.http.get(path).set('x-api-key', tenant.apiKey)).body.rateLimitPerSecond).toBeNull();
  });

  it("takes a filter of the tenant's page groups and brands, shows it on GET and the list, and PATCH changes or removes it", async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const brand = (await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody()).expect(201)).body;
    const filter = { pageGroupIds: [group.pageGroupId], brandIds: [brand.brandId] };
    const created = await create(tenant, { ...valid, filter });
    expect(created.status).toBe(201);
    expect(created.body.filter).toEqual(filter);
    expect((await t.http.get(`/v0/webhook_subscriptions/${created.body.id}`).set('x-api-key', tenant.apiKey)).body.filter).toEqual(filter);
    expect((await t.http.get('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey)).body.items[0].filter).toEqual(filter);
    const narrowed = await t.http.patch(`/v0/webhook_subscriptions/${created.body.id}`).set('x-api-key', tenant.apiKey).send({ filter: { brandIds: [brand.brandId] } });
    expect(narrowed.body.filter).toEqual({ brandIds: [brand.brandId] });
    const cleared = await t.http.patch(`/v0/webhook_subscriptions/${created.body.id}`).set('x-api-key', tenant.apiKey).send({ filter: null });
    expect(cleared.body.filter).toBeNull();
  });

  it("refuses a malformed filter with 400 naming the field and another tenant's id with 404, creating nothing", async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const foreign = await platform(t).group(other.tenantId);
    const mine = await platform(t).group(tenant.tenantId);
    for (const [filter, field] of [
      ['groups', 'filter'],
      [[mine.pageGroupId], 'filter'],
      [{ pageGroupIds: [] }, 'filter.pageGroupIds'],
      [{ pageGroupIds: 'page_01jdq8w9k1a2b3c4d5e6f7g8h9' }, 'filter.pageGroupIds'],
      [{ pageGroupIds: [mine.pageGroupId, 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9'] }, 'filter.pageGroupIds[1]'],
      [{ pageGroupIds: Array.from({ length: 101 }, () => mine.pageGroupId) }, 'filter.pageGroupIds'],
      [{ pages: [mine.pageGroupId] }, 'filter.pages'],
    ] as const) {
      const res = await create(tenant, { ...valid, filter });
      expect({ filter, status: res.status, code: res.body.code, field: res.body.details?.field }).toEqual({ filter, status: 400, code: 'VALIDATION_ERROR', field });
    }
    const refused = await create(tenant, { ...valid, filter: { pageGroupIds: [mine.pageGroupId, foreign.pageGroupId] } });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'NOT_FOUND', message: `page group ${foreign.pageGroupId} was not found`, details: { field: 'filter.pageGroupIds[1]' } });
    expect(await rows(t, 'SELECT id FROM webhook_subscriptions WHERE tenant_id = ?', [tenant.tenantId])).toEqual([]);
  });

  it('takes ordering page or none (none by default), shows it on GET and the list, and PATCH changes it', async () => {
    const tenant = await createTenant(t);
    expect((await create(tenant, valid)).body.ordering).toBe('none');
    const ordered = await create(tenant, { ...valid, ordering: 'page' });
    expect(ordered.status).toBe(201);
    expect(ordered.body.ordering).toBe('page');
    expect((await t.http.get(`/v0/webhook_subscriptions/${ordered.body.id}`).set('x-api-key', tenant.apiKey)).body.ordering).toBe('page');
    const listed = (await t.http.get('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey)).body.items;
    expect(listed.map((s: { ordering: string }) => s.ordering)).toEqual(['page', 'none']);
    const patched = await t.http.patch(`/v0/webhook_subscriptions/${ordered.body.id}`).set('x-api-key', tenant.apiKey).send({ ordering: 'none' });
    expect(patched.body.ordering).toBe('none');
    // Left out of a PATCH, it stays.
    const kept = await t.http.patch(`/v0/webhook_subscriptions/${ordered.body.id}`).set('x-api-key', tenant.apiKey).send({ ordering: 'page' });
    expect((await t.http.patch(`/v0/webhook_subscriptions/${ordered.body.id}`).set('x-api-key', tenant.apiKey).send({ active: true })).body.ordering).toBe(kept.body.ordering);
  });

  it('refuses an unknown or null ordering with 400 naming the field, writing nothing', async () => {
    const tenant = await createTenant(t);
    for (const ordering of ['pages', 'PAGE', null, 1, ['page']]) {
      const res = await create(tenant, { ...valid, ordering });
      expect({ ordering, status: res.status, code: res.body.code, field: res.body.details?.field }).toEqual({ ordering, status: 400, code: 'VALIDATION_ERROR', field: 'ordering' });
    }
    expect(await rows(t, 'SELECT id FROM webhook_subscriptions WHERE tenant_id = ?', [tenant.tenantId])).toEqual([]);
    const made = await create(tenant, valid);
    const refused = await t.http.patch(`/v0/webhook_subscriptions/${made.body.id}`).set('x-api-key', tenant.apiKey).send({ ordering: null });
    expect([refused.status, refused.body.details?.field]).toEqual([400, 'ordering']);
    expect((await t.http.get(`/v0/webhook_subscriptions/${made.body.id}`).set('x-api-key', tenant.apiKey)).body.ordering).toBe('none');
  });

  it('takes active: false', async () => {
    const tenant = await createTenant(t);
    expect((await create(tenant, { ...valid, active: false })).body.active).toBe(false);
  });

  it.each([
    ['missing url', { events: valid.events }, 'url'],
    ['relative url', { ...valid, url: '/hooks' }, 'url'],
    ['ftp url', { ...valid, url: 'ftp://hooks.example.com' }, 'url'],
    ['url of 2049 characters', { ...valid, url: `https://h.example/${'a'.repeat(2031)}` }, 'url'],
    ['numeric url', { ...valid, url: 5 }, 'url'],
    ['missing events', { url: valid.url }, 'events'],
    ['empty events', { ...valid, events: [] }, 'events'],
    ['events as a string', { ...valid, events: 'page.version.created' }, 'events'],
    ['unknown event kind', { ...valid, events: ['page.deleted'] }, 'events[0]'],
    ['duplicate event kind', { ...valid, events: ['page.version.created', 'page.version.created'] }, 'events[1]'],
    ['non-string event', { ...valid, events: [7] }, 'events[0]'],
    ['active as a string', { ...valid, active: 'yes' }, 'active'],
    ['active null', { ...valid, active: null }, 'active'],
    ['unknown property', { ...valid, secret: 'mine' }, 'secret'],
    ['rate limit 0', { ...valid, rateLimitPerSecond: 0 }, 'rateLimitPerSecond'],
    ['negative rate limit', { ...valid, rateLimitPerSecond: -5 }, 'rateLimitPerSecond'],
    ['fractional rate limit', { ...valid, rateLimitPerSecond: 2.5 }, 'rateLimitPerSecond'],
    ['rate limit as a string', { ...valid, rateLimitPerSecond: '5' }, 'rateLimitPerSecond'],
    ['rate limit above 10,000', { ...valid, rateLimitPerSecond: 10_001 }, 'rateLimitPerSecond'],
  ])('refuses %s with a 400 naming %s, writing nothing', async (_, body, field) => {
    const tenant = await createTenant(t);
    const res = await create(tenant, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
    expect(await rows(t, 'SELECT id FROM webhook_subscriptions WHERE tenant_id = ?', [tenant.tenantId])).toEqual([]);
  });

  it.each(['http://127.0.0.1:8080/hooks', 'http://[::1]/hooks', 'http://localhost/hooks', 'http://10.0.0.5/hooks', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/x'])(
    'refuses the private target %s unless private targets are allowed',
    async (url) => {
      const tenant = await createTenant(strict);
      const res = await create(tenant, { ...valid, url }, strict);
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('url');
    },
  );
});

describe('PATCH, GET, DELETE /v0/webhook_subscriptions/{subscription_id}', () => {
  it('updates the given fields only, moves updatedAt, never shows the secret', async () => {
    const tenant = await createTenant(t);
    const created = (await create(tenant, valid)).body;
    const res = await t.http.patch(`/v0/webhook_subscriptions/${created.id}`).set('x-api-key', tenant.apiKey).send({ active: false });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id', 'url', 'events', 'active', 'rateLimitPerSecond', 'filter', 'ordering', 'createdAt', 'updatedAt', 'health']);
    expect(res.body).toMatchObject({ active: false, url: valid.url, events: valid.events, createdAt: created.createdAt });
    expect(res.body.updatedAt > created.updatedAt).toBe(true);
    const moved = await t.http.patch(`/v0/webhook_subscriptions/${created.id}`).set('x-api-key', tenant.apiKey).send({ url: 'https://other.example/h' });
    expect(moved.body).toMatchObject({ url: 'https://other.example/h', active: false });
  });

  it.each([
    [{ url: 'nope' }, 'url'],
    [{ events: [] }, 'events'],
    [{ events: ['page.version.created', 'x'] }, 'events[1]'],
    [{ active: 1 }, 'active'],
    [{ url: null }, 'url'],
    [{ rateLimitPerSecond: 0 }, 'rateLimitPerSecond'],
    [{ rateLimitPerSecond: 1.5 }, 'rateLimitPerSecond'],
    [{ rateLimitPerSecond: '10' }, 'rateLimitPerSecond'],
  ])('refuses %j naming %s and changes nothing', async (body, field) => {
    const tenant = await createTenant(t);
    const created = (await create(tenant, valid)).body;
    const res = await t.http.patch(`/v0/webhook_subscriptions/${created.id}`).set('x-api-key', tenant.apiKey).send(body);
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
    const after = await t.http.get(`/v0/webhook_subscriptions/${created.id}`).set('x-api-key', tenant.apiKey);
    const { signingSecret, ...unchanged } = created;
    expect(after.body).toEqual(unchanged);
    expect(signingSecret).toBeDefined();
  });

  it("is a 404 for another tenant's subscription, unknown and malformed ids, and after DELETE", async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const created = (await create(tenant, valid)).body;
    for (const id of [created.id, 'whsub_01jdq8w9k1a2b3c4d5e6f7g8h9', 'x']) {
      expect((await t.http.get(`/v0/webhook_subscriptions/${id}`).set('x-api-key', other.apiKey)).status).toBe(404);
      expect((await t.http.patch(`/v0/webhook_subscriptions/${id}`).set('x-api-key', other.apiKey).send({ active: true })).status).toBe(404);
      expect((await t.http.delete(`/v0/webhook_subscriptions/${id}`).set('x-api-key', other.apiKey)).status).toBe(404);
    }
    const deleted = await t.http.delete(`/v0/webhook_subscriptions/${created.id}`).set('x-api-key', tenant.apiKey);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.http.get(`/v0/webhook_subscriptions/${created.id}`).set('x-api-key', tenant.apiKey)).status).toBe(404);
    expect((await t.http.get('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey)).body.items).toEqual([]);
  });

  it('pages the list and the delivery log', async () => {
    const tenant = await createTenant(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(tenant, valid)).body.id);
    const first = await t.http.get('/v0/webhook_subscriptions?limit=2').set('x-api-key', tenant.apiKey);
    expect(first.body.items.map((s: any) => s.id)).toEqual([ids[2], ids[1]]);
    const rest = await t.http.get(`/v0/webhook_subscriptions?limit=2&cursor=${first.body.nextCursor}`).set('x-api-key', tenant.apiKey);
    expect(rest.body).toEqual({ items: [expect.objectContaining({ id: ids[0] })], hasMore: false });
    const log = await t.http.get(`/v0/webhook_subscriptions/${ids[0]}/deliveries`).set('x-api-key', tenant.apiKey);
    expect(log.body).toEqual({ items: [], hasMore: false });
  });
});
