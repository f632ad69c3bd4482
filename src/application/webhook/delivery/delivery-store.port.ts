import { NextStep } from '../../../domain/webhook/retry-policy';
import { AttemptResult, DeliveryClaim, DeliveryJob } from './delivery-job';

/** The deliveries table: the source of truth for what is owed to whom. */
export abstract class DeliveryStore {
  /**
   * Takes attempt `attempt` of the delivery for `lockMs`; null when it is not this attempt's
   * turn (already done, taken by a live worker, cancelled). A crashed worker's claim expires.
   */
  abstract claim(deliveryId: string, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null>;
  /**
   * Writes the attempt to the log and the delivery's next state in one transaction. A success to
   * an endpoint that was healthy when claimed is noted as its last success there too (within a
   * second: the row is written at most once a second by successes).
   */
  abstract record(claim: DeliveryClaim, result: AttemptResult, next: NextStep, at: Date): Promise<void>;
  /**
   * Ends a delivery without sending it: `cancelled` when its subscription was deactivated or
   * deleted (or a manual one's deleted), `failed` when the platform turned the subscription off
   * for failing (so `recover` brings it back once the receiver is fixed).
   */
  abstract cancel(claim: DeliveryClaim, at: Date, status?: 'cancelled' | 'failed'): Promise<void>;
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
  /**
   * Deliveries whose attempt should have run at least `graceMs` ago (and whose lease, if any, has
   * run out) and that were not re-enqueued within `graceMs`: their job was lost (queue data
   * lost, a worker killed, a failure inside the attempt). Marks them re-enqueued now, so the
   * next sweep leaves them to the job it makes. Oldest first; empty when none.
   */
  abstract findStranded(now: Date, limit: number, graceMs: number): Promise<DeliveryJob[]>;
}
