import { DeliveryClaim } from './delivery-job';

/** The receiver's pace: its subscription's rate slots and Retry-After hold, and attempts put off to a slot. */
export abstract class SubscriptionPace {
  /**
   * Takes the subscription's next rate slot for one attempt (at most `ratePerSecond` a second,
   * across every worker): the slots are 1/rate apart and none is before `now` or the
   * subscription's `notBefore`. Returns the slot's time.
   */
  abstract takeRateSlot(subscriptionId: string, ratePerSecond: number, now: Date): Promise<Date>;
  /**
   * Puts the claimed attempt off until `until`, unsent and not counted, its lease given back;
   * `slotTaken` when `until` is a rate slot taken for it (kept, so it is not queued for again).
   */
  abstract putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void>;
  /** No attempt to the subscription before `until` (its receiver's Retry-After); a later time already set stays. */
  abstract holdSubscription(subscriptionId: string, until: Date): Promise<void>;
}
