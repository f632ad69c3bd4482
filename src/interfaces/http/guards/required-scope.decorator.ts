import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ApiKeyScope } from '../../../domain/api-key/api-key-scope';
import { ErrorResponse } from '../errors/error.response';

export const REQUIRED_SCOPE = 'required-scope';

/**
 * The scope a key needs for this operation (domain/api-key/api-key-scope.ts), checked by
 * ApiKeyGuard from the principal it already holds (no round trip). In the OpenAPI document it is
 * the operation's security requirement (OpenAPI 3.1 lets an apiKey scheme list roles) and an
 * `x-required-scope` extension, with the 403 it gives.
 */
export function RequiresScope(scope: ApiKeyScope) {
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    ApiSecurity('apiKey', [scope]),
    ApiExtension('x-required-scope', scope),
    ApiResponse({ status: 403, description: `INSUFFICIENT_SCOPE: the key's scopes do not include \`${scope}\` (or \`${scope.replace(/:read$/, ':write')}\`).`, type: ErrorResponse }),
  );
}
