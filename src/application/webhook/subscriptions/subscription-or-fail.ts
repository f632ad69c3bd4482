import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { foundOrFail } from '../../shared/found-or-fail';

/** The tenant's live subscription, or NotFoundError (malformed, foreign and deleted alike). */
export async function subscriptionOrFail(repo: WebhookSubscriptionRepository, tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookSubscription> {
  return foundOrFail('webhook subscription', 'whsub', id, () => repo.findById(tenantId, id, options));
}

/**
 * NotFoundError as above unless the tenant has this live subscription, which then stays live
 * until the unit of work ends. Not loaded: no secret is decrypted to check that it exists.
 */
export async function holdSubscriptionOrFail(repo: WebhookSubscriptionRepository, tenantId: string, id: string): Promise<void> {
  await foundOrFail('webhook subscription', 'whsub', id, () => repo.holdLive(tenantId, id));
}
