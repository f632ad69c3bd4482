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
