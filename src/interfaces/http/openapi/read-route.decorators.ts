import { applyDecorators, Get, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';
import type { ApiKeyScope } from '../../../domain/api-key/api-key-scope';
import { ConditionalRead } from '../conditional/conditional.decorators';
import { ApiErrors } from '../errors/error-responses.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';

// The two kinds of read every resource has, each declared once, so that no fetch forgets its ETag
// and 304 or its 404, and no list its 400. Decorators listed in the order a stack of them on the
// method would apply (bottom first), so that OpenAPI lists the responses as before.

/** GET of one resource: the scope, If-None-Match and its 304, the answer, and 404 when it is not the tenant's. */
export function FetchOne(path: string | undefined, scope: ApiKeyScope, operation: ApiOperationOptions, type: Type<unknown>) {
  return applyDecorators(ApiErrors(404), ApiOkResponse({ type }), ApiOperation(operation), ConditionalRead(), RequiresScope(scope), path === undefined ? Get() : Get(path));
}

/** GET of a list: the scope, the page's envelope, and 400 for a bad query or cursor. */
export function ListMany(scope: ApiKeyScope, operation: ApiOperationOptions, type: Type<unknown>) {
  return applyDecorators(ApiErrors(400), ApiOkResponse({ type }), ApiOperation(operation), RequiresScope(scope), Get());
}
