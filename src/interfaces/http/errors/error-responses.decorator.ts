import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from './error.response';

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_ERROR: a body, query or header value is invalid; `details.field` names it.',
  401: 'UNAUTHORIZED: missing, malformed, unknown or revoked x-api-key.',
  404: 'NOT_FOUND: no such resource for this tenant.',
  413: 'PAYLOAD_TOO_LARGE: body over 1 MiB.',
  415: 'UNSUPPORTED_MEDIA_TYPE: body not declared as JSON.',
  500: 'INTERNAL_ERROR.',
  503: 'SERVICE_UNAVAILABLE: the database is unreachable; see Retry-After.',
};

/** Documents the error responses a route can give, all in the one error shape. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...[...statuses, 401, 500, 503].map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorResponse })),
  );
}
