import { BacklogFullError } from '../../domain/shared/domain-error';

/** What one tenant's webhook work may grow to (docs/webhooks.md, Limits and fairness). */
export abstract class WebhookLimits {
  /**
   * Live subscriptions a tenant may have (WEBHOOK_SUBSCRIPTIONS_MAX): each event fans out to every
   * matching one, so this bounds what one event can cost the relay and the workers.
   */
  abstract readonly subscriptionsPerTenant: number;
  /**
   * Manual deliveries (redeliveries, recoveries, test events) of a tenant that may wait to be sent
   * at once (WEBHOOK_MANUAL_PENDING_MAX): past it, recover queues nothing more and redeliver and
   * test answer 429, so no tenant can queue unbounded work by repeating a request.
   */
  abstract readonly manualPendingPerTenant: number;
}

/**
 * Manual deliveries are one attempt each, sent as soon as a worker is free, so room comes back
 * within seconds unless the tenant's receivers hang (the attempt timeout, 10 s by default).
 */
const MANUAL_BACKLOG_RETRY_AFTER_SECONDS = 30;

/** The answer to a redeliver or test when the tenant's manual deliveries fill their bound (429). */
export function manualBacklogFull(limit: number): BacklogFullError {
  return new BacklogFullError('manual deliveries (redeliveries, recoveries, test events)', limit, MANUAL_BACKLOG_RETRY_AFTER_SECONDS);
}
