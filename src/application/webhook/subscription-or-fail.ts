import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { WebhookSubscription } from '../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription.repository';

/** The tenant's live subscription, or NotFoundError (malformed, foreign and deleted alike). */
export async function subscriptionOrFail(repo: WebhookSubscriptionRepository, tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookSubscription> {
  const found = isTypeId(id, 'whsub') ? await repo.findById(tenantId, id, options) : null;
  if (!found) throw new NotFoundError('webhook subscription', id);
  return found;
}
