import { ListSlice, ListRequest } from '../../shared/pagination';
import { WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { DeliveryAttemptView } from './delivery-attempt.view';

export abstract class WebhookSubscriptionQueries {
  /** The tenant's live subscriptions, newest first. */
  /** Newest first; with `only`, of those subscriptions alone. */
  abstract list(tenantId: string, page: ListRequest, only?: readonly string[] | null): Promise<ListSlice<WebhookSubscriptionView>>;
  /** Attempts of the subscription's deliveries made by `now`, newest first. */
  abstract attempts(tenantId: string, subscriptionId: string, page: ListRequest, now: Date): Promise<ListSlice<DeliveryAttemptView>>;
}
