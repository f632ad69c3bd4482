import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

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
        'Webhook deliveries are described in docs/webhooks.md; the event kinds are the `events` enum.',
      ].join('\n'),
    )
    .setVersion('0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Tenant API key (shown once at creation).' }, 'apiKey')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs and the OpenAPI JSON at /docs-json. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    yamlDocumentUrl: 'docs-yaml',
  });
}
