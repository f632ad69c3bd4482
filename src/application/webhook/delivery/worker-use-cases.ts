import { DeliverWebhook } from './deliver-webhook.use-case';
import { RelayOutbox } from './relay-outbox.use-case';
import { PurgeOldDeliveries } from './purge-old-deliveries.use-case';
import { SweepDeliveries } from './sweep-deliveries.use-case';
import { SubscriptionDeliveryState } from './subscription-delivery-state';
import { WakeHeldDeliveries } from './wake-held-deliveries.use-case';

/** The use cases only the webhook worker runs (they need the queue and the sender). */
export const WORKER_USE_CASES = [DeliverWebhook, RelayOutbox, SweepDeliveries, WakeHeldDeliveries, SubscriptionDeliveryState, PurgeOldDeliveries];
