import { AttemptFinish } from '../../application/webhook/attempt/attempt-finish';
import { AttemptStart } from '../../application/webhook/attempt/attempt-start';
import { BreakersSeenOpen } from '../../application/webhook/attempt/breakers-seen-open';
import { PageTurnHandOver } from '../../application/webhook/attempt/page-turn-hand-over';
import { UnclaimedFirstAttempts } from '../../application/webhook/attempt/unclaimed-first-attempts';
import { HeldPages } from '../../application/webhook/held/held-pages';
import { DeliverWebhook } from '../../application/webhook/attempt/deliver-webhook.use-case';
import { OutboxRelay } from '../../application/webhook/relay/outbox-relay';
import { PlannedOutboxRelay } from '../../application/webhook/relay/planned-outbox-relay';
import { RelayOutbox } from '../../application/webhook/relay/relay-outbox.use-case';
import { RollHistoryDays } from '../../application/webhook/history/roll-history-days.use-case';
import { SweepDeliveries } from '../../application/webhook/sweeper/sweep-deliveries.use-case';
import { SubscriptionDeliveryState } from '../../application/webhook/delivery/subscription-delivery-state';
import { WakeHeldDeliveries } from '../../application/webhook/held/wake-held-deliveries.use-case';

/** The use cases only the webhook worker runs (they need the queue and the sender), and the parts of an attempt. */
export const WORKER_USE_CASES = [
  DeliverWebhook, RelayOutbox, SweepDeliveries, WakeHeldDeliveries, RollHistoryDays,
  UnclaimedFirstAttempts, AttemptStart, AttemptFinish, PageTurnHandOver, BreakersSeenOpen, HeldPages, SubscriptionDeliveryState,
  { provide: OutboxRelay, useClass: PlannedOutboxRelay },
];
