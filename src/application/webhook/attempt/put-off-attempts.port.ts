import { DeliveryClaim } from './delivery-claim';

/**
 * Attempts put off to their time (a rate slot, a manual attempt past a Retry-After). The pace
 * itself is the subscription's (SubscriptionDeliveryState): this only moves the delivery.
 */
export abstract class PutOffAttempts {
  /**
   * Puts the claimed attempt off until `until`, unsent and not counted, its lease given back;
   * `slotTaken` when `until` is a rate slot taken for it (kept, so it is not queued for again).
   */
  abstract putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void>;
}
