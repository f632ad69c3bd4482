import { WebhookSubscription } from './webhook-subscription';

export abstract class WebhookSubscriptionRepository {
  /**
   * Null when the tenant has no such subscription, or it was deleted. With `forUpdate`, it stays
   * locked until the surrounding unit of work ends (a PATCH racing a DELETE must not undelete).
   */
  abstract findById(tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<WebhookSubscription | null>;
  /**
   * The event kinds the tenant's live subscription lists, without loading it (no secret is
   * decrypted), or null when there is no such live subscription. It stays live until the unit of
   * work ends (a DELETE waits), so what the caller writes for it next cannot outlive it.
   */
  abstract holdLive(tenantId: string, id: string): Promise<readonly string[] | null>;
  /**
   * Inserts a new subscription unless its tenant already has `limit` live ones (checked and
   * written atomically, so concurrent creations cannot pass the limit together). False when the
   * limit was reached and nothing was written. The secret is stored encrypted. In a unit of work.
   */
  abstract add(subscription: WebhookSubscription, limit: number): Promise<boolean>;
  /**
   * Writes a subscription loaded for update: whatever changed (a PATCH, a DELETE, a rotation's
   * secrets, the worker's delivery state) and the events it recorded, in the same transaction.
   * The one writer of its delivery state (decisions.md 128).
   */
  abstract save(subscription: WebhookSubscription): Promise<void>;
}
