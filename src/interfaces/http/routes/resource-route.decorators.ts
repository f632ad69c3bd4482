import { applyDecorators, Get, Header, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';
import type { ApiKeyScope } from '../../../domain/api-key/api-key-scope';
import { ConditionalRead } from '../conditional/conditional.decorators';
import { ApiErrors } from '../errors/error-responses.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';

// The kinds of route every resource has, each declared once, so that no fetch forgets its ETag
// and 304 or its 404, and no list its 400. Decorators listed in the order a stack of them on the
// method would apply (bottom first), so that OpenAPI lists the responses as before.

/**
 * POST that makes a resource of a parent (`path` names the parent's id): the scope, 201 with the
 * answer, an optional body, Idempotency-Key, and the errors of a body and of a parent not found.
 */
export function CreateUnder(path: string, scope: ApiKeyScope, operation: ApiOperationOptions, body: Type<unknown>, answer: Type<unknown>) {
  return applyDecorators(
    ApiErrors(400, 404, 413, 415),
    ApiCreatedResponse({ type: answer }),
    ApiBody({ type: body, required: false }),
    ApiOperation(operation),
    Idempotent(),
    HttpCode(201),
    RequiresScope(scope),
    Post(path),
  );
}

/** GET of one resource: the scope, If-None-Match and its 304, the answer, and 404 when it is not the tenant's. */
export function FetchOne(path: string | undefined, scope: ApiKeyScope, operation: ApiOperationOptions, type: Type<unknown>) {
  return applyDecorators(ApiErrors(404), ApiOkResponse({ type }), ApiOperation(operation), ConditionalRead(), RequiresScope(scope), path === undefined ? Get() : Get(path));
}

/**
 * GET of a list: the scope, the page's envelope, and 400 for a bad query or cursor. `storedJson`:
 * the handler answers the envelope as JSON text built from stored items, sent with its type.
 */
export function ListMany(scope: ApiKeyScope, operation: ApiOperationOptions, type: Type<unknown>, options: { storedJson?: boolean } = {}) {
  const json = options.storedJson ? [Header('Content-Type', 'application/json; charset=utf-8')] : [];
  return applyDecorators(...json, ApiErrors(400), ApiOkResponse({ type }), ApiOperation(operation), RequiresScope(scope), Get());
}
