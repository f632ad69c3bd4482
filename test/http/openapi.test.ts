import { THEME_FIELDS } from '../support/builders/request-bodies';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http.get('/docs-json')).body;
});
afterAll(() => t.close());

const schema = (name: string) => doc.components.schemas[name];
const LINK_EXCHANGE = 'post /v0/portal_sessions/exchange';

describe('OpenAPI document at /docs-json', () => {
  it('is OpenAPI 3 with the x-api-key security scheme, and the scope it needs, on every /v0 operation', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/v0')) continue;
      for (const [method, operation] of Object.entries<any>(item)) {
        // The portal link's exchange takes no key: the link's token is its credential (decisions.md 186).
        if (`${method} ${path}` === LINK_EXCHANGE) expect(operation.security).toEqual([]);
        else {
          // A portal session's bearer token is the other way in, where the operation is open to it.
          const capability = operation['x-portal-capability'];
          const expected = [{ apiKey: [operation['x-required-scope']] }, ...(capability ? [{ portalSession: [capability] }] : [])];
          expect(operation.security).toHaveLength(expected.length);
          expect(operation.security).toEqual(expect.arrayContaining(expected));
        }
      }
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
    // OpenAPI 3.1: nullable is a type union with null (Nest's `nullable: true` rewritten).
    expect(Object.values<any>(theme.properties).every((p) => Array.isArray(p.type) && p.type.includes('null'))).toBe(true);
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    expect(Object.keys(schema('ThemeRequest').properties).sort()).toEqual([...THEME_FIELDS.filter((f) => f.endsWith('Color')), 'favicon', 'logo', 'logoIcon'].sort());
    expect(schema('CreateBrandRequest').required.sort()).toEqual(['name', 'preferredAppearance', 'themeDark', 'themeLight']);
    expect(schema('UpdateBrandRequest').required ?? []).toEqual([]);
    expect(Object.keys(schema('BrandListResponse').properties).sort()).toEqual(['hasMore', 'items', 'nextCursor']);
    expect(Object.keys(schema('ErrorResponse').properties).sort()).toEqual(['code', 'details', 'message', 'requestId']);
  });

  it('describes the page group, page, UTM and template operations with the spec’s fields', () => {
    expect(doc.paths['/v0/page_groups'].get.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'limit', 'status']);
    expect(doc.paths['/v0/page_groups'].get.parameters.find((p: any) => p.name === 'status').schema.enum).toEqual(['draft', 'published', 'archived']);
    expect(Object.keys(doc.paths['/v0/page_groups/{page_group_id}/pages']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v0/page_groups/{page_group_id}/pages'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '404']));
    expect(doc.paths['/v0/page_groups/{page_group_id}/utm_parameters'].get.responses['200']).toBeDefined();
    expect(doc.paths['/v0/templates/{template_id}/duplicate'].post.responses['201']).toBeDefined();
    expect(Object.keys(schema('PageGroupResponse').properties)).toEqual([
      'pageGroupId', 'tenantId', 'brandId', 'name', 'title', 'pageContext', 'pageTemplateId', 'headerActionId', 'status',
      'pagesCount', 'actions', 'footerLinks', 'scripts', 'createdAt', 'updatedAt', 'deletedAt',
    ]);
    expect(Object.keys(schema('PageGroupListResponse').properties).sort()).toEqual(['hasMore', 'items', 'limit', 'nextCursor']);
    expect(schema('PageGroupListResponse').required.sort()).toEqual(['hasMore', 'items', 'limit']);
    expect(Object.keys(schema('PageListItemResponse').properties)).toEqual(['pageId', 'pageGroupId', 'tenantId', 'createdAt', 'updatedAt']);
    expect(Object.keys(schema('PageCreatedResponse').properties)).toEqual(['pageId', 'pageGroupId', 'pageTemplateId', 'tenantId', 'supplementaryContext', 'createdAt']);
    expect(schema('PageCreatedResponse').required.sort()).toEqual(['createdAt', 'pageGroupId', 'pageId', 'pageTemplateId', 'tenantId']);
    expect(Object.keys(schema('UtmParameters').properties).sort()).toEqual(['utm_campaigns', 'utm_contents', 'utm_mediums', 'utm_sources', 'utm_terms']);
    expect(Object.keys(schema('TemplateResponse').properties)).toEqual([
      'pageTemplateId', 'sourcePageTemplateId', 'name', 'description', 'templateContent', 'isEditable', 'isSystem', 'version', 'createdAt', 'updatedAt',
    ]);
    expect(schema('TemplateResponse').required).toHaveLength(10);
    expect(schema('CreatePageRequest').properties.supplementaryContext).toMatchObject({ minLength: 1, maxLength: 10000 });
    expect(schema('DuplicateTemplateRequest').properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
  });

  it('describes webhook subscriptions, marks the extensions, and publishes the event catalogue', () => {
    expect(Object.keys(doc.paths['/v0/webhook_subscriptions']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v0/webhook_subscriptions/{subscription_id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(doc.paths['/v0/webhook_subscriptions'].post['x-extension']).toBeUndefined();
    expect(doc.paths['/v0/webhook_subscriptions/{subscription_id}'].patch['x-extension']).toBeUndefined();
    for (const op of [doc.paths['/v0/webhook_subscriptions'].get, doc.paths['/v0/webhook_subscriptions/{subscription_id}'].get, doc.paths['/v0/webhook_subscriptions/{subscription_id}'].delete, doc.paths['/v0/webhook_subscriptions/{subscription_id}/deliveries'].get]) {
      expect(op['x-extension']).toBe(true);
    }
    expect(Object.keys(schema('CreatedWebhookSubscriptionResponse').properties).sort()).toEqual(['active', 'createdAt', 'events', 'filter', 'health', 'id', 'ordering', 'rateLimitPerSecond', 'signingSecret', 'updatedAt', 'url']);
    expect(Object.keys(schema('WebhookSubscriptionResponse').properties).sort()).toEqual(['active', 'createdAt', 'events', 'filter', 'health', 'id', 'ordering', 'rateLimitPerSecond', 'updatedAt', 'url']);
    expect(schema('CreateWebhookSubscriptionRequest').properties.ordering).toMatchObject({ enum: ['none', 'page'] });
    expect(schema('UpdateWebhookSubscriptionRequest').properties.ordering).toMatchObject({ enum: ['none', 'page'] });
    expect(schema('CreateWebhookSubscriptionRequest').properties.events.items.enum).toEqual(['page.version.created', 'brand.created', 'brand.updated', 'webhook_subscription.failing', 'webhook_subscription.recovered', 'webhook_subscription.disabled']);
    expect(schema('CreateWebhookSubscriptionRequest').required.sort()).toEqual(['events', 'url']);
    expect(Object.keys(schema('DeliveryAttemptResponse').properties)).toEqual([
      'id', 'deliveryId', 'trigger', 'redeliveryOf', 'eventId', 'eventType', 'attemptNumber', 'statusCode', 'durationMs', 'error', 'nextAttemptAt', 'createdAt',
    ]);
    const operations = '/v0/webhook_subscriptions/{subscription_id}';
    expect(Object.keys(doc.paths[`${operations}/deliveries/{delivery_id}/redeliver`].post.responses)).toEqual(expect.arrayContaining(['202', '404', '409']));
    expect(Object.keys(doc.paths[`${operations}/recover`].post.responses)).toEqual(expect.arrayContaining(['202', '400', '404']));
    expect(doc.paths[`${operations}/recover`].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/RecoverDeliveriesRequest');
    expect(schema('RotateSigningSecretRequest').properties.expiresInSeconds).toMatchObject({ type: 'integer', minimum: 0, maximum: 604800, default: 86400 });
    expect(doc.paths[`${operations}/rotate_secret`].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/CreatedWebhookSubscriptionResponse');
    expect(doc.paths[`${operations}/test`].post.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/ManualDeliveryResponse');
  });

  it('is OpenAPI 3.1 with a webhooks section: each event kind’s envelope, data and signature headers', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks).sort()).toEqual(['brand.created', 'brand.updated', 'page.version.created', 'webhook.test', 'webhook_subscription.disabled', 'webhook_subscription.failing', 'webhook_subscription.recovered']);
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const ref = item.post.requestBody.content['application/json'].schema.$ref as string;
      const envelope = schema(ref.split('/').pop()!);
      expect(envelope.required).toEqual(['id', 'type', 'createdAt', 'tenantId', 'data']);
      expect(envelope.properties.type.enum).toEqual([type]);
      expect(item.post.parameters.map((p: any) => p.name)).toEqual(
        expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'X-Webhook-Signature-256']),
      );
      expect(Object.keys(item.post.responses).sort()).toEqual(['2XX', '410', 'default']);
    }
    expect(schema('BrandCreatedEvent').properties.data.$ref).toBe('#/components/schemas/BrandResponse');
    expect(schema('PageVersionCreatedEvent').properties.data.required).toEqual(['pageVersionId', 'pageId', 'pageGroupId', 'version', 'createdAt']);
  });

  it('documents 429 everywhere and Idempotency-Key with 409 and 422 on every POST', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/v0')) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.responses['429']).toBeDefined();
        // A link opens once: its exchange is not repeatable, so it takes no Idempotency-Key.
        if (method !== 'post' || `${method} ${path}` === LINK_EXCHANGE) continue;
        expect(op.parameters.find((p: any) => p.name === 'Idempotency-Key' && p.in === 'header')).toBeDefined();
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
      }
    }
  });

  it('defines every tag once, in the order of the resources, and none without an operation', () => {
    const defined = doc.tags.map((tag: { name: string }) => tag.name);
    expect(defined).toEqual(['Brands', 'Page groups', 'Pages', 'Templates', 'Webhook subscriptions', 'Webhook deliveries', 'Events', 'Portal sessions', 'Health']);
    const used = new Set<string>();
    for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) for (const tag of op.tags ?? []) used.add(tag);
    expect([...used].sort()).toEqual([...defined].sort());
    // Swagger UI draws a tag with no path operation as an empty section: webhooks carry none.
    for (const item of Object.values<any>(doc.webhooks)) expect(item.post.tags).toBeUndefined();
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
