import { HeldWakeState } from '../../../domain/webhook/delivery-pace';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryClaim } from '../attempt/delivery-claim';

/** The subscription whose held deliveries move: its jobs name its tenant and endpoint. */
export interface HeldOwner {
  id: string;
  tenantId: string;
  url: string;
}

/** A subscription that holds deliveries, and what deciding its wake-up reads (read without its lock). */
export interface HeldSubscription extends HeldOwner, HeldWakeState {}

/** When a release's deliveries go, as offsets from now, and how long until the next page may. */
export type ReleasePlan = (count: number) => { offsetsMs: number[]; spreadMs: number };

/**
 * Deliveries held by their subscription (open breaker, receiver's Retry-After): parked, with no
 * job, and woken per subscription (the probe, then the rest in pages), never one by one. Only
 * the deliveries move here: whether they may is the subscription's (SubscriptionDeliveryState),
 * decided under its lock in the same unit of work.
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
  /** Subscriptions holding deliveries, after `after` in id order, at most `limit`. */
  abstract holding(after: string, limit: number): Promise<HeldSubscription[]>;
  /**
   * Wakes one held delivery as the breaker's probe: one never claimed when there is one, then
   * each in turn after `lastProbeId`. Null when none is held.
   */
  abstract wakeProbe(owner: HeldOwner, lastProbeId: string | null, now: Date): Promise<DeliveryJob | null>;
  /**
   * Releases the next page (at most `pageSize`, oldest first) of held deliveries at the plan's
   * times; the plan's spread says when the next page may go. No jobs when none is held.
   */
  abstract release(owner: HeldOwner, now: Date, pageSize: number, plan: ReleasePlan): Promise<{ jobs: DeliveryJob[]; spreadMs: number }>;
}
