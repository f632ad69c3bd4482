import { DomainError } from '../../domain/shared/domain-error';

/** One parked read of a tenant's feed (a long poll), from before its read to its answer. */
export interface FeedWait {
  /**
   * Resolves true once events may have come to the tenant's feed since the wait was entered (a
   * signal that came before this call counts), false when `ms` passed, `signal` aborted, or the
   * process is stopping.
   */
  next(ms: number, signal?: AbortSignal): Promise<boolean>;
  /** Gives the slot back; every wait entered must be left. */
  leave(): void;
}

/**
 * The parked reads of this process and what wakes them: the relay tells which tenants' feeds
 * moved, whichever process it runs in. Bounded per tenant and per process.
 */
export abstract class EventFeedWaits {
  /** Enters a wait for the tenant's feed; throws TooManyWaitsError past the bounds. */
  abstract enter(tenantId: string): Promise<FeedWait>;
}

/** Past the bounds of parked reads: the caller should come back after `retryAfterSeconds`. */
export class TooManyWaitsError extends DomainError {
  readonly code = 'RATE_LIMITED' as const;
  override readonly retryAfterSeconds = 1;

  constructor(scope: 'tenant' | 'process', bound: number) {
    super(
      scope === 'tenant'
        ? `At most ${bound} reads of the event feed may wait at once per tenant; retry after 1 s, or read without wait.`
        : `This server holds its maximum of ${bound} waiting reads of the event feed; retry after 1 s.`,
      { waiting: bound, scope },
    );
  }
}
