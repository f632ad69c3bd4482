import { brandBody } from '../support/builders/request-bodies';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function createBrand(tenant: TestTenant, name: string): Promise<string> {
  const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody({ name }));
  expect(res.status).toBe(201);
  return res.body.brandId;
}

describe('GET /v0/brands/{brand_id}', () => {
  it("is a 404 NOT_FOUND for another tenant's brand, an unknown id, a wrong prefix and a malformed id", async () => {
    const owner = await createTenant(t);
    const stranger = await createTenant(t);
    const brandId = await createBrand(owner, 'Mine');
    const ids = [brandId, 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9', brandId.replace('brand_', 'page_'), 'brand_123', 'BRAND_01JDQ8W9K1A2B3C4D5E6F7G8H9', '%00', 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9%27%20OR%201=1'];
    for (const id of ids) {
      const res = await t.http.get(`/v0/brands/${id}`).set('x-api-key', stranger.apiKey);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
    }
    const patch = await t.http.patch(`/v0/brands/${brandId}`).set('x-api-key', stranger.apiKey).send({ name: 'Stolen' });
    expect(patch.status).toBe(404);
    const mine = await t.http.get(`/v0/brands/${brandId}`).set('x-api-key', owner.apiKey);
    expect(mine.status).toBe(200);
    expect(mine.body.name).toBe('Mine');
  });
});

describe('GET /v0/brands', () => {
  it('lists only the tenant’s brands, newest first, default page of 20', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    await createBrand(other, 'not mine');
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push(await createBrand(tenant, `b${i}`));
    const res = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items', 'hasMore', 'nextCursor']);
    expect(res.body.items).toHaveLength(20);
    expect(res.body.items.map((b: { brandId: string }) => b.brandId)).toEqual(ids.slice(2).reverse());
    expect(res.body.items.every((b: { tenantId: string }) => b.tenantId === tenant.tenantId)).toBe(true);
    expect(res.body.hasMore).toBe(true);
  });

  it('walks 45 brands in pages of 10 while brands are inserted during the walk: each original once, in order', async () => {
    const tenant = await createTenant(t);
    const original: string[] = [];
    for (let i = 0; i < 45; i++) original.push(await createBrand(tenant, `walk ${i}`));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await t.http.get('/v0/brands').query({ limit: 10, ...(cursor && { cursor }) }).set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(200);
      pages++;
      seen.push(...res.body.items.map((b: { brandId: string }) => b.brandId));
      // nextCursor is present exactly when hasMore is true.
      expect('nextCursor' in res.body).toBe(res.body.hasMore);
      cursor = res.body.nextCursor;
      await createBrand(tenant, `inserted during page ${pages}`);
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual([...original].reverse());
  });

  it('gives an empty page, without nextCursor, to a tenant with no brands', async () => {
    const tenant = await createTenant(t);
    const res = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
    expect(res.body).toEqual({ items: [], hasMore: false });
  });

  it('accepts limit 1 and 100', async () => {
    const tenant = await createTenant(t);
    await createBrand(tenant, 'a');
    await createBrand(tenant, 'b');
    const one = await t.http.get('/v0/brands?limit=1').set('x-api-key', tenant.apiKey);
    expect(one.body.items).toHaveLength(1);
    expect(one.body.hasMore).toBe(true);
    const hundred = await t.http.get('/v0/brands?limit=100').set('x-api-key', tenant.apiKey);
    expect(hundred.body.items).toHaveLength(2);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['limit=10&limit=20', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['cursor=', 'cursor'],
    ['status=draft', 'status'],
  ])('refuses ?%s with a 400 naming %s', async (query, field) => {
    const tenant = await createTenant(t);
    const res = await t.http.get(`/v0/brands?${query}`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
  });

  it("refuses another tenant's cursor only if it was tampered with: it is just a position", async () => {
    const tenant = await createTenant(t);
    for (let i = 0; i < 3; i++) await createBrand(tenant, `c${i}`);
    const first = await t.http.get('/v0/brands?limit=1').set('x-api-key', tenant.apiKey);
    const other = await createTenant(t);
    const res = await t.http.get(`/v0/brands?cursor=${first.body.nextCursor}`).set('x-api-key', other.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });
});
