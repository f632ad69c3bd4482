import { WebhookSubscription } from './webhook-subscription';

export abstract class WebhookSubscriptionRepository {
  /**
   * Null when the tenant has no such subscription, or it was deleted. With `forUpdate`, it stays
   * locked until the surrounding unit of work ends (a PATCH racing a DELETE must not undelete).
   */
  abstract findById(tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<WebhookSubscription | null>;
  /** Inserts or updates; the secret is stored encrypted. */
  abstract save(subscription: WebhookSubscription): Promise<void>;
}

/** Makes a new signing secret: `whsec_` + base64 of 32 random bytes. */
export abstract class SigningSecretGenerator {
  abstract generate(): string;
}
