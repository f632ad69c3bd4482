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
