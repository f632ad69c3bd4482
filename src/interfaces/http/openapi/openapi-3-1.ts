import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Makes the document OpenAPI 3.1, for its `webhooks` section (3.0 has none, and Swagger UI shows
 * `webhooks` only in a 3.1 document). Nest's Swagger module writes schemas the 3.0 way; the one
 * idiom of that in this document that 3.1 (JSON Schema 2020-12) dropped is `nullable: true`:
 * a typed schema becomes `type: [T, "null"]` (and an enum gains null), a reference wrapped in
 * `allOf` becomes `anyOf: [<ref>, { type: "null" }]`. Everything else is valid in both.
 */
export function toOpenApi31(document: OpenAPIObject): void {
  document.openapi = '3.1.0';
  rewriteNullable(document.paths);
  rewriteNullable(document.components);
}

function rewriteNullable(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(rewriteNullable);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (Array.isArray(schema.allOf)) {
      schema.anyOf = [...(schema.allOf as unknown[]), { type: 'null' }];
      delete schema.allOf;
      delete schema.type;
    } else if (typeof schema.type === 'string') {
      schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
    }
  }
  Object.values(schema).forEach(rewriteNullable);
}
