/**
 * Live subscriptions a tenant may have (WEBHOOK_SUBSCRIPTIONS_MAX): each event fans out to every
 * matching one, so this bounds what one event can cost the relay and the workers.
 */
export abstract class SubscriptionLimits {
  abstract readonly perTenant: number;
}
