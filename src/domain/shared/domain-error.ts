import { parseTypeId } from './type-id';

/**
 * Every error the core raises on purpose. `kind` is what the HTTP adapter maps to a status
 * (exhaustively, so a new kind does not compile until it is mapped); `code` is stable for clients.
 */
export type DomainErrorKind = 'validation' | 'not_found' | 'conflict' | 'limit' | 'backlog';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  abstract readonly code: string;
  readonly details?: Record<string, unknown>;

  protected constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** A value breaks a rule of the model; `field` is the request path that carried it. */
export class InvalidValueError extends DomainError {
  readonly kind = 'validation' as const;
  readonly code = 'VALIDATION_ERROR';

  constructor(field: string, reason: string) {
    super(`${field} ${reason}`, { field, reason });
  }
}

/** The resource does not exist for this tenant (another tenant's resource looks the same). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found' as const;
  readonly code = 'NOT_FOUND';

  /** The message names the id only when it is a well-formed id: input is never echoed raw. */
  constructor(
    resource: string,
    readonly id: string,
  ) {
    super(parseTypeId(id) ? `${resource} ${id} was not found` : `${resource} was not found`);
  }
}

/** Another change to the same thing won a race; the caller may retry with fresh state. */
export class ConcurrentChangeError extends DomainError {
  readonly kind = 'conflict' as const;
  readonly code = 'CONFLICT';

  constructor(what: string) {
    super(`${what} was changed concurrently; retry`);
  }
}

/** The thing is busy with work that must finish first (an attempt in flight); retry afterwards. */
export class InProgressError extends DomainError {
  readonly kind = 'conflict' as const;
  readonly code = 'CONFLICT';

  constructor(message: string, details?: Record<string, unknown>) {
    super(message, details);
  }
}

/** A per-tenant limit of the model is reached (decisions.md 66): nothing was written. */
export class LimitExceededError extends DomainError {
  readonly kind = 'limit' as const;
  readonly code = 'LIMIT_EXCEEDED';

  constructor(resource: string, limit: number) {
    super(`A tenant may have at most ${limit} ${resource}; delete one first.`, { resource, limit });
  }
}

/**
 * Too much of the tenant's work of this kind is waiting to be done: nothing was written; the same
 * request succeeds once some of it is done (429 with Retry-After, like a rate limit).
 */
export class BacklogFullError extends DomainError {
  readonly kind = 'backlog' as const;
  readonly code = 'RATE_LIMITED';

  constructor(what: string, limit: number, readonly retryAfterSeconds: number) {
    super(`At most ${limit} ${what} may wait per tenant; retry after ${retryAfterSeconds} s.`, { limit, retryAfterSeconds });
  }
}
