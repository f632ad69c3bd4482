import type { DeliveryFilter, EventSubjects } from './delivery-filter';
import { passesFilter } from './delivery-filter';

/** An event as far as choosing its subscriptions goes: its kind, and for a health event the subscription it is about. */
export interface EventToDeliver {
  type: string;
  /** The subscription a `webhook_subscription.*` event is about; null or absent for any other. */
  about?: string | null;
  /** What it is about, for a subscription's filter; absent: not narrowed by one (a retry goes by the relay's choice). */
  subjects?: EventSubjects;
}

/**
 * The one rule of which subscriptions an event goes to, used by the relay that makes the
 * deliveries and by each scheduled attempt (a subscription changed since): active, not deleted,
 * listing the event's kind, passing its filter (by the relay, which reads what the event is
 * about), and never a subscription's own health event (it would feed itself: a receiver failing
 * again because of the events about its failing).
 */
export function wantsEvent(
  subscription: { id: string; active: boolean; deleted: boolean; events: readonly string[]; filter?: DeliveryFilter | null },
  event: EventToDeliver,
): boolean {
  return (
    subscription.active &&
    !subscription.deleted &&
    subscription.events.includes(event.type) &&
    event.about !== subscription.id &&
    (event.subjects === undefined || passesFilter(subscription.filter ?? null, event.subjects))
  );
}
