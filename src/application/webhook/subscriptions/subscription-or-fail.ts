import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { foundOrFail } from '../../shared/found-or-fail';

/** The tenant's live subscription, or NotFoundError (malformed, foreign and deleted alike). */
export async function subscriptionOrFail(repo: WebhookSubscriptionRepository, tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookSubscription> {
  return foundOrFail('webhook subscription', 'whsub', id, () => repo.findById(tenantId, id, options));
}

/**
 * The event kinds the tenant's live subscription lists, which then stays live until the unit of
 * work ends; NotFoundError as above. Not loaded: no secret is decrypted to check that it exists.
 */
export function holdSubscriptionOrFail(repo: WebhookSubscriptionRepository, tenantId: string, id: string): Promise<readonly string[]> {
  return foundOrFail('webhook subscription', 'whsub', id, () => repo.holdLive(tenantId, id));
}
