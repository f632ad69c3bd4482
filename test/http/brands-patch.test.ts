import { brandBody } from '../support/builders/request-bodies';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t);
});
afterAll(() => t.close());

async function newBrand(): Promise<Record<string, any>> {
  const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody());
  return res.body;
}

const patch = (id: string, body: unknown, type = 'application/json') =>
  t.http.patch(`/v0/brands/${id}`).set('x-api-key', tenant.apiKey).set('content-type', type).send(JSON.stringify(body));

describe('PATCH /v0/brands/{brand_id}', () => {
  it('keeps absent fields, replaces given ones, merges themes field by field and moves updatedAt', async () => {
    const brand = await newBrand();
    const res = await patch(brand.brandId, { name: 'Renamed', themeLight: { buttonTextColor: '#fff' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', preferredAppearance: 'system', companyHomePage: 'https://acme.example', createdAt: brand.createdAt });
    expect(res.body.themeLight).toEqual({ ...brand.themeLight, buttonTextColor: '#fff' });
    expect(res.body.themeDark).toEqual(brand.themeDark);
    expect(res.body.updatedAt > brand.updatedAt).toBe(true);
    const fetched = await t.http.get(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey);
    expect(fetched.body).toEqual(res.body);
  });

  it('clears nullable fields sent as null (companyHomePage is then omitted)', async () => {
    const brand = await newBrand();
    const res = await patch(brand.brandId, { companyHomePage: null, themeLight: { borderColor: null, logo: null } }, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('companyHomePage');
    expect(res.body.themeLight).toMatchObject({ borderColor: null, logoUrl: null, logoFileId: null, buttonBackgroundColor: '#4F46E5' });
  });

  it('moves updatedAt on an empty patch and changes nothing else', async () => {
    const brand = await newBrand();
    const res = await patch(brand.brandId, {});
    expect(res.status).toBe(200);
    const { updatedAt, ...rest } = res.body;
    const { updatedAt: before, ...restBefore } = brand;
    expect(rest).toEqual(restBefore);
    expect(updatedAt > before).toBe(true);
  });

  it('replaces an image given again, keeping the other images', async () => {
    const brand = await newBrand();
    const res = await patch(brand.brandId, { themeLight: { favicon: { type: 'url', url: 'https://cdn.example.com/f.ico' } } });
    expect(res.body.themeLight).toMatchObject({ faviconUrl: 'https://cdn.example.com/f.ico', logoUrl: 'https://cdn.example.com/logo.svg' });
  });

  it.each([
    ['null name', 'name', { name: null }],
    ['empty name', 'name', { name: '' }],
    ['null preferredAppearance', 'preferredAppearance', { preferredAppearance: null }],
    ['null theme', 'themeDark', { themeDark: null }],
    ['bad nested colour', 'themeDark.secondaryAccentColor', { themeDark: { secondaryAccentColor: 'rgb(0,0,0)' } }],
    ['unknown property', 'brandId', { brandId: 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9' }],
    ['bad home page', 'companyHomePage', { companyHomePage: 'not a url' }],
  ])('refuses %s with a 400 naming %s and changes nothing', async (_, field, body) => {
    const brand = await newBrand();
    const res = await patch(brand.brandId, body);
    expect(res.status).toBe(400);
    expect(res.body.details).toMatchObject({ field });
    const after = await t.http.get(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey);
    expect(after.body).toEqual(brand);
  });
});
