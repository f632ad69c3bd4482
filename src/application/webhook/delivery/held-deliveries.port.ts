import { DeliveryClaim, DeliveryJob } from './delivery-job';

/** A subscription whose held deliveries may move now. */
export interface HeldSubscription {
  id: string;
  /** Its breaker is open and its probe is due: one held delivery goes, as the probe. */
  probing: boolean;
  ratePerSecond: number | null;
}

/** When a release's deliveries go, as offsets from now, and how long until the next page may. */
export type ReleasePlan = (count: number) => { offsetsMs: number[]; spreadMs: number };

/**
 * Deliveries held by their subscription (open breaker, receiver's Retry-After): parked, with no
 * job, and woken per subscription (the probe, then the rest in pages), never one by one.
 */
export abstract class HeldDeliveries {
  /** Parks the claimed attempt with its subscription: unsent, uncounted, its lease given back. */
  abstract hold(claim: DeliveryClaim, at: Date): Promise<void>;
  /**
   * The breaker has just opened: holds the subscription's deliveries waiting for an attempt (due or
   * retrying, not in flight), at most `limit`, so that their jobs find nothing to take; those left
   * are held when claimed. Returns how many.
   */
  abstract holdAll(subscriptionId: string, now: Date, limit: number): Promise<number>;
  /** Subscriptions with held deliveries whose probe is due or which may release them now, at most `limit`; empty when none. */
  abstract due(now: Date, limit: number): Promise<HeldSubscription[]>;
  /**
   * Takes the open breaker's probe if it is due and no one took it: a held delivery is woken as
   * the probe (each in turn), the probe leased until `leaseUntil` (another may go after it if this one
   * never reports). Null when none is held or the probe is not due.
   */
  abstract wakeProbe(subscriptionId: string, now: Date, leaseUntil: Date): Promise<DeliveryJob | null>;
  /**
   * Releases the next page (at most `pageSize`) of held deliveries at the plan's times, if the subscription may
   * release now (its breaker closed, or it is off; no Retry-After; the last page's spread
   * passed); the next page not before the plan's spread. Empty when nothing may go.
   */
  abstract release(subscriptionId: string, now: Date, pageSize: number, plan: ReleasePlan): Promise<DeliveryJob[]>;
}
