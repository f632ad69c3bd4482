import { brandBody, THEME_FIELDS } from '../support/builders/request-bodies';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { sqlIn } from '../support/database';

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t);
});
afterAll(() => t.close());

async function brandCount(tenantId: string): Promise<number> {
  const rows = await sqlIn<{ n: string }>(t.orm, 'SELECT count(*) AS n FROM brands WHERE tenant_id = ?', [tenantId]);
  return Number(rows[0].n);
}

describe('POST /v0/brands', () => {
  it('creates a brand: 201, exactly the spec fields, all 14 theme fields, values as sent', async () => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody());
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-z]{26}$/);
    expect(Object.keys(res.body)).toEqual(['brandId', 'name', 'preferredAppearance', 'tenantId', 'themeLight', 'themeDark', 'companyHomePage', 'createdAt', 'updatedAt']);
    expect(res.body.brandId).toMatch(/^brand_[0-9a-z]{26}$/);
    expect(res.body.tenantId).toBe(tenant.tenantId);
    expect(Object.keys(res.body.themeLight)).toEqual(THEME_FIELDS);
    expect(Object.keys(res.body.themeDark)).toEqual(THEME_FIELDS);
    expect(res.body.themeLight).toMatchObject({ borderColor: '#e5e7eb', buttonBackgroundColor: '#4F46E5', logoUrl: 'https://cdn.example.com/logo.svg', logoFileId: null, faviconUrl: null });
    expect(res.body.themeDark.pageBackgroundColor).toBe('#111827');
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);

    const fetched = await t.http.get(`/v0/brands/${res.body.brandId}`).set('x-api-key', tenant.apiKey);
    expect(fetched.body).toEqual(res.body);
  });

  it('omits companyHomePage when it is not given, and accepts empty themes', async () => {
    const res = await t.http
      .post('/v0/brands')
      .set('x-api-key', tenant.apiKey)
      .send({ name: 'B', preferredAppearance: 'dark', themeLight: {}, themeDark: {} });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('companyHomePage');
    expect(Object.values(res.body.themeLight).every((v) => v === null)).toBe(true);
  });

  it.each(['#abc', '#abcd', '#aabbcc', '#AABBCCDD'])('accepts the hex colour %s', async (colour) => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody({ themeDark: { borderColor: colour } }));
    expect(res.status).toBe(201);
    expect(res.body.themeDark.borderColor).toBe(colour);
  });

  const cases: [string, string, Record<string, unknown>][] = [
    ['missing name', 'name', brandBody({ name: undefined })],
    ['null name', 'name', brandBody({ name: null })],
    ['empty name', 'name', brandBody({ name: '' })],
    ['name of 201 characters', 'name', brandBody({ name: 'n'.repeat(201) })],
    ['numeric name', 'name', brandBody({ name: 42 })],
    ['missing preferredAppearance', 'preferredAppearance', brandBody({ preferredAppearance: undefined })],
    ['unknown preferredAppearance', 'preferredAppearance', brandBody({ preferredAppearance: 'blue' })],
    ['missing themeLight', 'themeLight', brandBody({ themeLight: undefined })],
    ['themeDark as a string', 'themeDark', brandBody({ themeDark: 'dark' })],
    ['themeDark as an array', 'themeDark', brandBody({ themeDark: [] })],
    ['named colour', 'themeLight.borderColor', brandBody({ themeLight: { borderColor: 'red' } })],
    ['five-digit hex', 'themeDark.mutedTextColor', brandBody({ themeDark: { mutedTextColor: '#12345' } })],
    ['numeric colour', 'themeDark.buttonTextColor', brandBody({ themeDark: { buttonTextColor: 123 } })],
    ['unknown theme field', 'themeLight.fontFamily', brandBody({ themeLight: { fontFamily: 'Inter' } })],
    ['image of unknown type', 'themeLight.logo.type', brandBody({ themeLight: { logo: { type: 'file', url: 'https://x.example/a.png' } } })],
    ['image without url', 'themeLight.favicon.url', brandBody({ themeLight: { favicon: { type: 'url' } } })],
    ['image with a relative url', 'themeLight.logoIcon.url', brandBody({ themeLight: { logoIcon: { type: 'url', url: '/logo.png' } } })],
    ['image with a javascript: url', 'themeDark.logo.url', brandBody({ themeDark: { logo: { type: 'url', url: 'javascript:alert(1)' } } })],
    ['image as a string', 'themeDark.logo', brandBody({ themeDark: { logo: 'https://x.example/a.png' } })],
    ['unknown image field', 'themeDark.logo.alt', brandBody({ themeDark: { logo: { type: 'url', url: 'https://x.example/a.png', alt: 'x' } } })],
    ['ftp home page', 'companyHomePage', brandBody({ companyHomePage: 'ftp://acme.example' })],
    ['home page of 2049 characters', 'companyHomePage', brandBody({ companyHomePage: `https://acme.example/${'a'.repeat(2049 - 21)}` })],
    ['unknown top-level property', 'tenantId', brandBody({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' })],
  ];

  it.each(cases)('refuses %s: 400 VALIDATION_ERROR naming %s, writing nothing', async (_, field, body) => {
    const before = await brandCount(tenant.tenantId);
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      requestId: res.headers['x-request-id'],
      details: { field, reason: expect.any(String) },
    });
    expect(res.body.details.reason.length).toBeGreaterThan(3);
    expect(await brandCount(tenant.tenantId)).toBe(before);
  });

  it.each([
    [{ name: 42 }, 'name', 'must be a string'],
    [{ name: null }, 'name', 'must not be null'],
    [{ name: undefined }, 'name', 'is required'],
    [{ name: '' }, 'name', 'must be 1 to 200 characters'],
    [{ preferredAppearance: 'blue' }, 'preferredAppearance', 'must be one of: system, light, dark'],
    [{ themeLight: { logo: { url: 'https://x.example/a.png' } } }, 'themeLight.logo.type', 'is required'],
    [{ themeLight: { logo: { type: 'file', url: 'https://x.example/a.png' } } }, 'themeLight.logo.type', 'must be one of: url'],
    [{ companyHomePage: 7 }, 'companyHomePage', 'must be a string'],
    [{ extra: true }, 'extra', 'is not an allowed property'],
  ])('says why: %j gives %s "%s"', async (overrides, field, reason) => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody(overrides));
    expect(res.body.details).toEqual({ field, reason });
    expect(res.body.message).toBe(`${field}: ${reason}`);
  });

  it('accepts a home page of exactly 2048 characters', async () => {
    const url = `https://acme.example/${'a'.repeat(2048 - 21)}`;
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody({ companyHomePage: url }));
    expect(res.status).toBe(201);
    expect(res.body.companyHomePage).toBe(url);
  });
});
