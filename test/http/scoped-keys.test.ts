import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { RevokeApiKey } from '../../src/application/api-key/revoke-api-key.use-case';
import { buildOpenApiDocument } from '../../src/interfaces/http/openapi/openapi';
import { API_KEY_SCOPES } from '../../src/domain/api-key/api-key-scope';
import { brandBody } from '../support/builders/request-bodies';
import { inContext } from '../support/database';
import { rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t, 'Scopes');
});
afterAll(() => t.close());

const keyWith = (scopes: string[]) => inContext(t.orm, () => t.app.get(CreateApiKey).execute({ tenantId: tenant.tenantId, scopes }));

describe('scoped API keys', () => {
  it('lets a read-only key read and refuses its writes with 403 INSUFFICIENT_SCOPE naming the scope, writing nothing', async () => {
    const { apiKey } = await keyWith(['brands:read']);
    expect((await t.http.get('/v0/brands').set('x-api-key', apiKey)).status).toBe(200);

    const before = await rows<{ n: string }>(t, 'SELECT count(*) AS n FROM brands WHERE tenant_id = ?', [tenant.tenantId]);
    const write = await t.http.post('/v0/brands').set('x-api-key', apiKey).send(brandBody());
    expect(write.status).toBe(403);
    expect(write.body).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      message: 'This API key lacks the scope brands:write for this operation.',
      requestId: write.headers['x-request-id'],
      details: { requiredScope: 'brands:write', grantedScopes: ['brands:read'] },
    });
    expect(await rows(t, 'SELECT count(*) AS n FROM brands WHERE tenant_id = ?', [tenant.tenantId])).toEqual(before);

    const other = await t.http.get('/v0/webhook_subscriptions').set('x-api-key', apiKey);
    expect(other.status).toBe(403);
    expect(other.body.details.requiredScope).toBe('webhooks:read');
  });

  it('reads with a write scope (write includes read), and nothing of another resource', async () => {
    const { apiKey } = await keyWith(['webhooks:write']);
    expect((await t.http.get('/v0/webhook_subscriptions').set('x-api-key', apiKey)).status).toBe(200);
    expect((await t.http.get('/v0/events').set('x-api-key', apiKey)).body.details.requiredScope).toBe('events:read');
    expect((await t.http.get('/v0/templates').set('x-api-key', apiKey)).status).toBe(403);
  });

  it('checks the scope before the body: a malformed body from a key without the scope is a 403, not a 400', async () => {
    const { apiKey } = await keyWith(['events:read']);
    const res = await t.http.post('/v0/brands').set('x-api-key', apiKey).set('content-type', 'application/json').send('{"name":');
    expect(res.status).toBe(403);
  });

  it('keeps full access for a key without scopes, and revocation of a scoped key immediate', async () => {
    expect((await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody())).status).toBe(201);
    const scoped = await keyWith(['brands:read']);
    expect((await t.http.get('/v0/brands').set('x-api-key', scoped.apiKey)).status).toBe(200);
    await inContext(t.orm, () => t.app.get(RevokeApiKey).execute({ apiKeyId: scoped.apiKeyId }));
    expect((await t.http.get('/v0/brands').set('x-api-key', scoped.apiKey)).status).toBe(401);
  });

  it('names the scope of every /v0 operation in the OpenAPI document, with its 403', () => {
    const document = buildOpenApiDocument(t.app);
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v0'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation: operation as Record<string, any> })));
    expect(operations.length).toBeGreaterThan(25);
    for (const { path, method, operation } of operations) {
      // The portal link's exchange takes no key: the link's token is its credential (decisions.md 186).
      if (`${method} ${path}` === 'post /v0/portal_sessions/exchange') continue;
      const scope = operation['x-required-scope'];
      expect({ path, method, known: (API_KEY_SCOPES as readonly string[]).includes(scope) }).toEqual({ path, method, known: true });
      expect(operation.security).toEqual(expect.arrayContaining([{ apiKey: [scope] }]));
      expect(operation.security.filter((s: object) => !('portalSession' in s))).toEqual([{ apiKey: [scope] }]);
      expect(operation.responses['403']).toBeDefined();
    }
  });
});
