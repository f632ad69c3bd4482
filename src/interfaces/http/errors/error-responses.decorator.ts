import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from './error.response';

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_ERROR: a body, query or header value is invalid; `details.field` names it.',
  401: 'UNAUTHORIZED: missing, malformed, unknown or revoked x-api-key (or portal session token, with `details.reason`).',
  404: 'NOT_FOUND: no such resource for this tenant.',
  413: 'PAYLOAD_TOO_LARGE: body over 1 MiB.',
  409: 'CONFLICT: a request with the same Idempotency-Key is still in progress.',
  415: 'UNSUPPORTED_MEDIA_TYPE: body not declared as JSON.',
  422: 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with a different request.',
  429: 'RATE_LIMITED: over the budget of this key (or too many failed authentications from this address); see Retry-After and details.retryAfterSeconds.',
  500: 'INTERNAL_ERROR.',
  503: 'SERVICE_UNAVAILABLE: the database is unreachable; see Retry-After.',
};

/** Documents the error responses a route can give, all in the one error shape. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...[...statuses, 401, 429, 500, 503].map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorResponse })),
  );
}

/** A POST that honours Idempotency-Key (every POST does). */
export function ApiIdempotent() {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Up to 255 printable ASCII characters. A retry with the same key and request gets the first response again (`Idempotent-Replayed: true`) for 24 h.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
    ApiResponse({ status: 409, description: DESCRIPTIONS[409], type: ErrorResponse }),
    ApiResponse({ status: 422, description: DESCRIPTIONS[422], type: ErrorResponse }),
  );
}
