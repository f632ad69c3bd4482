import { THEME_FIELDS } from '../support/brand-payloads';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http.get('/docs-json')).body;
});
afterAll(() => t.close());

const schema = (name: string) => doc.components.schemas[name];

describe('OpenAPI document at /docs-json', () => {
  it('is OpenAPI 3 with the x-api-key security scheme on every /v0 operation', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/v0')) continue;
      for (const operation of Object.values<any>(item)) expect(operation.security).toEqual([{ apiKey: [] }]);
    }
  });

  it('describes the four brand operations with their success and error responses', () => {
    expect(Object.keys(doc.paths['/v0/brands']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v0/brands/{brand_id}']).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(doc.paths['/v0/brands'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '500', '503']));
    expect(Object.keys(doc.paths['/v0/brands'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '413', '415']));
    expect(Object.keys(doc.paths['/v0/brands/{brand_id}'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(Object.keys(doc.paths['/v0/brands/{brand_id}'].patch.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    const limit = doc.paths['/v0/brands'].get.parameters.find((p: any) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
  });

  it('names the fields exactly as the spec does, with required and nullable as decisions.md says', () => {
    const brand = schema('BrandResponse');
    expect(Object.keys(brand.properties).sort()).toEqual(
      ['brandId', 'name', 'preferredAppearance', 'tenantId', 'themeLight', 'themeDark', 'companyHomePage', 'createdAt', 'updatedAt'].sort(),
    );
    expect(brand.required.sort()).toEqual(['brandId', 'createdAt', 'name', 'preferredAppearance', 'tenantId', 'themeDark', 'themeLight', 'updatedAt']);
    expect(brand.properties.preferredAppearance.enum).toEqual(['system', 'light', 'dark']);
    const theme = schema('ThemeResponse');
    expect(Object.keys(theme.properties)).toEqual(THEME_FIELDS);
    expect(theme.required).toEqual(THEME_FIELDS);
    expect(Object.values<any>(theme.properties).every((p) => p.nullable === true)).toBe(true);
    expect(Object.keys(schema('ThemeRequest').properties).sort()).toEqual([...THEME_FIELDS.filter((f) => f.endsWith('Color')), 'favicon', 'logo', 'logoIcon'].sort());
    expect(schema('CreateBrandRequest').required.sort()).toEqual(['name', 'preferredAppearance', 'themeDark', 'themeLight']);
    expect(schema('UpdateBrandRequest').required ?? []).toEqual([]);
    expect(Object.keys(schema('BrandListResponse').properties).sort()).toEqual(['hasMore', 'items', 'nextCursor']);
    expect(Object.keys(schema('ErrorResponse').properties).sort()).toEqual(['code', 'details', 'message', 'requestId']);
  });

  it('carries examples', () => {
    expect(schema('CreateBrandRequest').properties.name.example).toBe('Acme');
    expect(schema('ErrorResponse').properties.details.example).toMatchObject({ field: 'themeLight.borderColor' });
  });

  it('serves Swagger UI at /docs without a key', async () => {
    const res = await t.http.get('/docs/').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger');
  });
});
