import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../client/index';
import { generateOpenApiDocument } from '../../src/openapi-document';
import { brandBody } from '../support/brand-payloads';
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
});
