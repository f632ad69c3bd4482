import { parseTypeId } from './type-id';

/**
 * The stable code of every error the core raises on purpose. The HTTP adapter maps each one to a
 * status and an API code in a `Record` over this union, so a new code does not compile until it
 * is mapped (DOMAIN_ERRORS in interfaces/http/errors/api-error.ts).
 */
export type DomainErrorCode = 'VALIDATION_ERROR' | 'UNAUTHENTICATED' | 'INSUFFICIENT_SCOPE' | 'NOT_FOUND' | 'CONFLICT' | 'LIMIT_EXCEEDED' | 'RATE_LIMITED';

/**
 * The base of every error the core raises on purpose. The kinds shared by every aggregate are
 * here; an aggregate's own errors sit beside it (webhook/webhook.errors.ts).
 */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  readonly details?: Record<string, unknown>;
  /** Set when the same request may succeed after this many seconds (sent as Retry-After). */
  readonly retryAfterSeconds?: number;

  protected constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** A value breaks a rule of the model; `field` is the request path that carried it. */
export class InvalidValueError extends DomainError {
  readonly code = 'VALIDATION_ERROR' as const;

  constructor(field: string, reason: string) {
    super(`${field} ${reason}`, { field, reason });
  }
}

/** The resource does not exist for this tenant (another tenant's resource looks the same). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;

  /**
   * The message names the id only when it is a well-formed id: input is never echoed raw. `field`:
   * the request field that named it, when it came in a body (a filter's ids).
   */
  constructor(
    resource: string,
    readonly id: string,
    field?: string,
  ) {
    super(parseTypeId(id) ? `${resource} ${id} was not found` : `${resource} was not found`, field === undefined ? undefined : { field });
  }
}

/** Another change to the same thing won a race; the caller may retry with fresh state. */
export class ConcurrentChangeError extends DomainError {
  readonly code = 'CONFLICT' as const;

  constructor(what: string) {
    super(`${what} was changed concurrently; retry`);
  }
}
