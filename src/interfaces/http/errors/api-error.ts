import { DomainErrorKind } from '../../../domain/shared/domain-error';

/** Stable error codes of the API (decisions.md, Errors). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'LIMIT_EXCEEDED'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

/** The error body every failing response carries. */
export interface ErrorBody {
  code: ErrorCode | string;
  message: string;
  requestId: string;
  details?: Record<string, unknown>;
}

/** An error the HTTP adapter raises itself, already in the API's terms. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  static validation(field: string, reason: string): ApiError {
    return new ApiError(400, 'VALIDATION_ERROR', `${field}: ${reason}`, { field, reason });
  }

  static notFound(message = 'The requested resource was not found.'): ApiError {
    return new ApiError(404, 'NOT_FOUND', message);
  }

  static unauthorized(): ApiError {
    // One body for a missing, malformed, unknown or revoked key: it must not tell which.
    return new ApiError(401, 'UNAUTHORIZED', 'A valid API key is required in the x-api-key header.', undefined, {
      'WWW-Authenticate': 'ApiKey header="x-api-key"',
    });
  }
}

/** Status of each domain error kind; `Record` makes a new kind fail to compile until mapped. */
export const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  limit: 422,
  backlog: 429,
};
