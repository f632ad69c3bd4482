import { DeliverWebhook } from '../../application/webhook/delivery/deliver-webhook.use-case';
import { RelayOutbox } from '../../application/webhook/delivery/relay-outbox.use-case';
import { RollHistoryDays } from '../../application/webhook/delivery/roll-history-days.use-case';
import { SweepDeliveries } from '../../application/webhook/delivery/sweep-deliveries.use-case';
import { SubscriptionDeliveryState } from '../../application/webhook/delivery/subscription-delivery-state';
import { WakeHeldDeliveries } from '../../application/webhook/delivery/wake-held-deliveries.use-case';

/** The use cases only the webhook worker runs (they need the queue and the sender). */
export const WORKER_USE_CASES = [DeliverWebhook, RelayOutbox, SweepDeliveries, WakeHeldDeliveries, SubscriptionDeliveryState, RollHistoryDays];
