import { brandBody } from '../support/builders/request-bodies';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Issue 20, items 5 and 6: the tenant's events, exactly as delivered, and the brand events.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (tenant: TestTenant, path: string) => t.http.get(path).set('x-api-key', tenant.apiKey);

/** A tenant with three events: brand.created, brand.updated, page.version.created (in that order). */
async function tenantWithEvents() {
  const tenant = await createTenant(t);
  const brand = (await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody()).expect(201)).body;
  const patched = (await t.http.patch(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey).send({ name: 'Renamed' }).expect(200)).body;
  const group = await platform(t).group(tenant.tenantId);
  const page = (await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201)).body;
  const stored = await rows<{ id: string; body: string }>(t, 'SELECT id, body FROM outbox_events WHERE tenant_id = ? ORDER BY id DESC', [tenant.tenantId]);
  return { tenant, brand, patched, page, stored };
}

describe('brand events', () => {
  it('writes brand.created and brand.updated with the Brand exactly as the API answered it', async () => {
    const { tenant, brand, patched, stored } = await tenantWithEvents();
    const envelopes = stored.map((row) => JSON.parse(row.body));
    expect(envelopes.map((e) => e.type)).toEqual(['page.version.created', 'brand.updated', 'brand.created']);
    expect(envelopes[2]).toEqual({ id: stored[2].id, type: 'brand.created', createdAt: brand.createdAt, tenantId: tenant.tenantId, data: brand });
    expect(envelopes[1]).toEqual({ id: stored[1].id, type: 'brand.updated', createdAt: patched.updatedAt, tenantId: tenant.tenantId, data: patched });
  });

  it('writes no event for a refused change', async () => {
    const tenant = await createTenant(t);
    await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody({ name: '' })).expect(400);
    expect(await rows(t, 'SELECT 1 FROM outbox_events WHERE tenant_id = ?', [tenant.tenantId])).toHaveLength(0);
  });

  it('can be subscribed to', async () => {
    const tenant = await createTenant(t);
    const res = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey)
      .send({ url: 'https://hooks.example.com/brands', events: ['brand.created', 'brand.updated', 'page.version.created'] }).expect(201);
    expect(res.body.events).toEqual(['brand.created', 'brand.updated', 'page.version.created']);
  });
});

describe('GET /v0/events', () => {
  it('lists the tenant’s events newest first, each the stored envelope byte for byte', async () => {
    const { tenant, stored } = await tenantWithEvents();
    const res = await get(tenant, '/v0/events').expect(200);
    expect(res.text).toBe(`{"items":[${stored.map((row) => row.body).join(',')}],"hasMore":false}`);
    const one = await get(tenant, `/v0/events/${stored[1].id}`).expect(200);
    expect(one.text).toBe(stored[1].body);
    expect(one.headers['content-type']).toMatch(/^application\/json/);
  });

  it('walks page by page, and filters by type and by creation time', async () => {
    const { tenant, stored } = await tenantWithEvents();
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(tenant, `/v0/events?limit=1${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      walked.push(...res.body.items.map((e: { id: string }) => e.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual(stored.map((row) => row.id));

    const brands = (await get(tenant, '/v0/events?type=brand.created').expect(200)).body.items;
    expect(brands.map((e: { type: string }) => e.type)).toEqual(['brand.created']);
    const created = JSON.parse(stored[2].body).createdAt;
    const after = (await get(tenant, `/v0/events?createdAfter=${created}`).expect(200)).body.items;
    expect(after.map((e: { id: string }) => e.id)).toEqual(stored.filter((row) => JSON.parse(row.body).createdAt > created).map((row) => row.id));

    const filtered = (await get(tenant, '/v0/events?type=brand.updated&limit=1').expect(200)).body;
    expect(filtered.hasMore).toBe(false);
    const first = (await get(tenant, '/v0/events?limit=1').expect(200)).body;
    const refused = await get(tenant, `/v0/events?type=brand.created&cursor=${first.nextCursor}`).expect(400);
    expect(refused.body.details).toMatchObject({ field: 'cursor' });
  });

  it('never shows another tenant’s events', async () => {
    const { stored } = await tenantWithEvents();
    const other = await createTenant(t);
    expect((await get(other, '/v0/events').expect(200)).body.items).toEqual([]);
    const res = await get(other, `/v0/events/${stored[0].id}`).expect(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    await get(other, '/v0/events/evt_nope').expect(404);
  });

  it.each([
    ['type=brand.deleted', 'type'],
    ['createdAfter=yesterday', 'createdAfter'],
    ['createdAfter=2026-11-01T00:00:00', 'createdAfter'],
    ['limit=0', 'limit'],
    ['cursor=abc', 'cursor'],
  ])('refuses %s as a 400 naming %s', async (query, field) => {
    const tenant = await createTenant(t);
    const res = await get(tenant, `/v0/events?${query}`).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
  });
});
