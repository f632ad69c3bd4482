import { DomainError } from '../shared/domain-error';

/** The tenant has as many live subscriptions as it may (decisions.md 66): nothing was written. */
export class SubscriptionLimitError extends DomainError {
  readonly code = 'LIMIT_EXCEEDED' as const;

  constructor(limit: number) {
    super(`A tenant may have at most ${limit} webhook subscriptions; delete one first.`, { resource: 'webhook subscriptions', limit });
  }
}

/** A delivery has an attempt in flight or a redelivery waiting: a redelivery must wait for it. */
export class DeliveryInProgressError extends DomainError {
  readonly code = 'CONFLICT' as const;

  constructor(deliveryId: string) {
    super(`delivery ${deliveryId} has an attempt in flight or a redelivery waiting; retry once it has finished`, { deliveryId });
  }
}

/**
 * Manual deliveries are one attempt each, sent as soon as a worker is free, so room comes back
 * within seconds unless the tenant's receivers hang (the attempt timeout, 10 s by default).
 */
const MANUAL_BACKLOG_RETRY_AFTER_SECONDS = 30;

/**
 * The tenant's manual deliveries (redeliveries, recoveries, test events) waiting to be sent fill
 * their bound: nothing was written; the same request succeeds once some are sent (429 with
 * Retry-After, like a rate limit).
 */
export class ManualBacklogFullError extends DomainError {
  readonly code = 'RATE_LIMITED' as const;
  override readonly retryAfterSeconds = MANUAL_BACKLOG_RETRY_AFTER_SECONDS;

  constructor(limit: number) {
    super(`At most ${limit} manual deliveries (redeliveries, recoveries, test events) may wait per tenant; retry after ${MANUAL_BACKLOG_RETRY_AFTER_SECONDS} s.`, {
      limit,
      retryAfterSeconds: MANUAL_BACKLOG_RETRY_AFTER_SECONDS,
    });
  }
}
