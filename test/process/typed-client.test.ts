import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../client';
import { generateOpenApiDocument } from '../../src/composition/api/openapi-document';
import { brandBody } from '../support/builders/request-bodies';
import { platform } from '../support/platform';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const committed = JSON.parse(readFileSync(join(ROOT, 'openapi', 'openapi.json'), 'utf8'));

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe('OpenAPI document and typed client: no drift', () => {
  it('the committed openapi/openapi.json is what the code generates and what the service serves', async () => {
    expect(await generateOpenApiDocument()).toEqual(committed);
    expect((await t.http.get('/docs-json')).body).toEqual(committed);
  });

  it('the committed client/schema.d.ts is what openapi-typescript makes of it', async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const generated = astToString(await openapiTS(committed));
    const onDisk = readFileSync(join(ROOT, 'client', 'schema.d.ts'), 'utf8');
    // The CLI adds a banner; the declarations must be the same.
    expect(onDisk.slice(onDisk.indexOf('export interface paths'))).toBe(generated.slice(generated.indexOf('export interface paths')));
  });
});

describe('the typed client against the running API', () => {
  it('creates, fetches and walks brands, and reads typed errors', async () => {
    const tenant = await createTenant(t);
    const client = createApiClient({ baseUrl, apiKey: tenant.apiKey });
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { data, response } = await client.POST('/v0/brands', { body: brandBody({ name: `Typed ${i}` }) as never });
      expect(response.status).toBe(201);
      names.push(data!.name);
    }
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await client.GET('/v0/brands', { params: { query: { limit: 2, cursor } } });
      walked.push(...data!.items.map((b) => b.name));
      cursor = data!.nextCursor;
    } while (cursor);
    expect(walked).toEqual([...names].reverse());

    const missing = await client.GET('/v0/brands/{brand_id}', { params: { path: { brand_id: 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND', requestId: expect.stringMatching(/^req_/) });
  });

  it('sends If-None-Match and If-Match as typed header parameters and reads 304 and 412', async () => {
    const tenant = await createTenant(t);
    const client = createApiClient({ baseUrl, apiKey: tenant.apiKey });
    const { data: brand } = await client.POST('/v0/brands', { body: brandBody({ name: 'Tagged' }) as never });
    const path = { brand_id: brand!.brandId };
    const read = await client.GET('/v0/brands/{brand_id}', { params: { path } });
    const etag = read.response.headers.get('etag')!;
    const unchanged = await client.GET('/v0/brands/{brand_id}', { params: { path, header: { 'If-None-Match': etag } } });
    expect(unchanged.response.status).toBe(304);
    await client.PATCH('/v0/brands/{brand_id}', { params: { path, header: { 'If-Match': etag } }, body: { name: 'Retagged' } });
    const stale = await client.PATCH('/v0/brands/{brand_id}', { params: { path, header: { 'If-Match': etag } }, body: { name: 'Lost' } });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { currentETag: expect.any(String) } });
  });
});

/** The example a schema documents: its own, else one built from its properties' examples. */
function exampleOf(schema: any): unknown {
  if (schema.$ref) return exampleOf(committed.components.schemas[schema.$ref.split('/').pop()]);
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map(exampleOf));
  if (schema.type === 'array' && schema.items) return [exampleOf(schema.items)];
  if (schema.properties) {
    const entries = Object.entries<any>(schema.properties).map(([name, property]) => [name, exampleOf(property)]);
    return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
  return undefined;
}

describe('every documented request example', () => {
  it('is accepted by the API when sent through the typed client', async () => {
    const tenant = await createTenant(t);
    const client = createApiClient({ baseUrl, apiKey: tenant.apiKey }) as any;
    const group = await platform(t).group(tenant.tenantId);
    const template = await platform(t).systemTemplate('Examples');
    const brand = (await client.POST('/v0/brands', { body: brandBody() })).data;
    const subscription = (await client.POST('/v0/webhook_subscriptions', { body: { url: 'https://hooks.example.com/x', events: ['page.version.created'] } })).data;
    const page = (await client.POST('/v0/page_groups/{page_group_id}/pages', { params: { path: { page_group_id: group.pageGroupId } }, body: {} })).data;
    // Ids in examples name nothing of this tenant's: the ids of what was just made stand in. A
    // moment in an example is of the day it was written, so a recent one stands in (recover takes 30 days).
    // A portal link opens once: a link of its own stands in for the exchange's example.
    const portal = (await client.POST('/v0/portal_sessions', { body: { capabilities: ['deliveries:read'], expiresIn: 600 } })).data;
    const ids: Record<string, unknown> = {
      brand_id: brand.brandId, page_group_id: group.pageGroupId, page_id: page.pageId, template_id: template.pageTemplateId, subscription_id: subscription.id, pageTemplateId: template.pageTemplateId,
      since: new Date(Date.now() - 60_000).toISOString(), subscriptionIds: [subscription.id], linkToken: decodeURIComponent(new URL(portal.url).hash.slice('#token='.length)),
    };
    const sent: string[] = [];
    for (const [path, item] of Object.entries<any>(committed.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const content = operation.requestBody?.content?.['application/json'];
        if (!content) continue;
        const body = exampleOf(content.schema) as Record<string, unknown>;
        for (const key of Object.keys(body)) if (ids[key]) body[key] = ids[key];
        const pathParams = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, ids[name]]));
        const { response, error } = await client[method.toUpperCase()](path, { params: { path: pathParams }, body });
        expect({ operation: `${method.toUpperCase()} ${path}`, body, status: response.status, error }).toEqual({ operation: `${method.toUpperCase()} ${path}`, body, status: expect.any(Number), error: undefined });
        expect(response.status).toBeLessThan(300);
        sent.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(sent).toHaveLength(11);
  });

  it('types URLs and template ids as strings, so a TypeScript user sends them without a cast', async () => {
    const tenant = await createTenant(t);
    const client = createApiClient({ baseUrl, apiKey: tenant.apiKey });
    const group = await platform(t).group(tenant.tenantId);
    const template = await platform(t).systemTemplate('Typed');
    // `npm run typecheck` compiles these calls: with the fields typed `object`, it refused them.
    const brand = await client.POST('/v0/brands', { body: { name: 'Typed', preferredAppearance: 'dark', themeLight: {}, themeDark: {}, companyHomePage: 'https://acme.example' } });
    expect(brand.data?.companyHomePage).toBe('https://acme.example');
    const patched = await client.PATCH('/v0/brands/{brand_id}', { params: { path: { brand_id: brand.data!.brandId } }, body: { companyHomePage: null } });
    expect(patched.data?.companyHomePage).toBeUndefined();
    const page = await client.POST('/v0/page_groups/{page_group_id}/pages', {
      params: { path: { page_group_id: group.pageGroupId } },
      body: { pageTemplateId: template.pageTemplateId, supplementaryContext: 'From the typed client.' },
    });
    expect(page.data).toMatchObject({ pageTemplateId: template.pageTemplateId, supplementaryContext: 'From the typed client.' });
  });
});
