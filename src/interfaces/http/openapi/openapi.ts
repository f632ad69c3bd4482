import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-3-1';
import { describeWebhooks } from './webhook-events.openapi';

export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = 'docs-json';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Landing-page platform Customer API')
    .setDescription(
      [
        'RESTful JSON API under /v0 for brands, page groups, pages, templates and webhook subscriptions.',
        '',
        'Every /v0 request carries its tenant API key in `x-api-key`. Errors share one body:',
        '`{ code, message, requestId, details? }`; every response has `x-request-id`.',
        'Lists are newest first with keyset pagination: pass `nextCursor` back as `cursor`.',
        'Each key has a request budget (default 100 per 10 s): every response carries `RateLimit-Limit`,',
        '`RateLimit-Remaining` and `RateLimit-Reset`; past it, 429 with `Retry-After`.',
        'Every POST takes an `Idempotency-Key` header for safe retries.',
        'A key may be limited to scopes (`brands:read`, `webhooks:write`, …; a `write` scope includes its `read`):',
        'each operation names the scope it needs (its security requirement and `x-required-scope`); outside them, 403 `INSUFFICIENT_SCOPE`.',
        'A key without scopes has full access.',
        'Webhook deliveries (envelope, `data` of each kind, signature headers) are in this document’s `webhooks` section and docs/webhooks.md.',
      ].join('\n'),
    )
    .setVersion('0')
    // Relative: the API answers where the document was fetched from, whatever its host.
    .addServer('/', 'This service')
    .addTag('Brands', 'Visual identity: light and dark themes.')
    .addTag('Page groups', 'Collections of pages set up by the platform; their pages and UTM parameters.')
    .addTag('Pages', 'One page of a group: its versions and statistics.')
    .addTag('Templates', 'System and custom page templates.')
    .addTag('Webhook subscriptions', 'Signed deliveries of events to your endpoints; redeliver, recover, test, rotate the secret.')
    .addTag('Webhook deliveries', 'Every delivery of the tenant\'s, searchable, each with its attempts: what was sent and what came back.')
    .addTag('Events', 'Every event, as its deliveries carried it, for reconciliation.')
    .addTag('Portal sessions', "The webhook portal: a page a tenant's people open to see and operate its webhooks.")
    .addTag('Health', 'Liveness and readiness probes; no key needed.')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Tenant API key (shown once at creation). The scopes an operation lists are what a scoped key needs for it.' }, 'apiKey')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'lps_…',
        description: 'A portal session token (POST /v0/portal_sessions, then …/exchange): reaches only the operations whose `x-portal-capability` the session holds.',
      },
      'portalSession',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  describeWebhooks(document);
  toOpenApi31(document);
  // No public licence page exists to link to: the name alone.
  document.info.license = { name: 'Proprietary' };
  // Operations outside /v0 (health) need no key: say so, rather than leave security unstated.
  for (const [path, item] of Object.entries(document.paths)) {
    if (path.startsWith('/v0')) continue;
    for (const operation of Object.values(item)) if (typeof operation === 'object' && operation && 'responses' in operation) operation.security = [];
  }
  return document;
}

/** Swagger UI at /docs and the OpenAPI JSON at /docs-json. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    yamlDocumentUrl: 'docs-yaml',
  });
}
