import { DomainErrorCode } from '../../../domain/shared/domain-error';

/** Stable error codes of the API (decisions.md, Errors). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'INSUFFICIENT_SCOPE'
  | 'PRECONDITION_FAILED'
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

  /** The key is valid but not for this: `requiredScope` names what it lacks (null: full access). */
  static insufficientScope(requiredScope: string | null, grantedScopes: readonly string[]): ApiError {
    const needs = requiredScope === null ? 'full access' : `the scope ${requiredScope}`;
    return new ApiError(403, 'INSUFFICIENT_SCOPE', `This API key lacks ${needs} for this operation.`, { requiredScope, grantedScopes: [...grantedScopes] });
  }

  /** An If-Match that no longer holds: the resource changed; its current tag is named. */
  static preconditionFailed(currentETag: string): ApiError {
    return new ApiError(412, 'PRECONDITION_FAILED', `The resource has changed since the ETag in If-Match; its current ETag is ${currentETag}.`, { currentETag }, { ETag: currentETag });
  }

  /** A portal token that opens nothing; the reason lets the page say which (decisions.md 186). */
  static portalRefused(reason: string): ApiError {
    return new ApiError(401, 'UNAUTHORIZED', `This portal session opens nothing (${reason}); ask for a new link.`, { reason }, { 'WWW-Authenticate': 'Bearer realm="portal"' });
  }

  /** An operation a portal session's capabilities do not include, or that is not open to portal sessions. */
  static portalNotAllowed(requiredCapability: string | null, capabilities: readonly string[]): ApiError {
    const needs = requiredCapability === null ? 'is not open to portal sessions' : `needs the portal capability ${requiredCapability}`;
    return new ApiError(403, 'INSUFFICIENT_SCOPE', `This operation ${needs}.`, { requiredCapability, capabilities: [...capabilities] });
  }

  static unauthorized(): ApiError {
    // One body for a missing, malformed, unknown or revoked key: it must not tell which.
    return new ApiError(401, 'UNAUTHORIZED', 'A valid API key is required in the x-api-key header.', undefined, {
      'WWW-Authenticate': 'ApiKey header="x-api-key"',
    });
  }
}

/**
 * The answer to each code the core raises: a `Record` over the union, so a new code fails to
 * compile until it is mapped here.
 */
export const DOMAIN_ERRORS: Record<DomainErrorCode, { status: number; code: ErrorCode }> = {
  VALIDATION_ERROR: { status: 400, code: 'VALIDATION_ERROR' },
  UNAUTHENTICATED: { status: 401, code: 'UNAUTHORIZED' },
  INSUFFICIENT_SCOPE: { status: 403, code: 'INSUFFICIENT_SCOPE' },
  NOT_FOUND: { status: 404, code: 'NOT_FOUND' },
  CONFLICT: { status: 409, code: 'CONFLICT' },
  LIMIT_EXCEEDED: { status: 422, code: 'LIMIT_EXCEEDED' },
  RATE_LIMITED: { status: 429, code: 'RATE_LIMITED' },
};
