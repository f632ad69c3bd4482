import { DeliveryJob } from '../delivery/delivery-job';

/** Turns committed outbox events into deliveries, one per matching active subscription. */
export abstract class OutboxRelayStore {
  /**
   * Claims up to `limit` unpublished events, in id order from `from` (null: from the first), fewer
   * when their deliveries would exceed the round's bound; returns how many, the deliveries made,
   * whether more events may be waiting, and the last event published (`through`).
   */
  abstract fanOut(limit: number, now: Date, from?: string | null): Promise<{ events: number; deliveries: DeliveryJob[]; more: boolean; through?: string }>;
  /**
   * Up to `limit` manual deliveries (DeliveryRequests) not yet handed to the queue, marked handed
   * now: a lost hand-over is then the sweeper's, as for any delivery.
   */
  abstract takeRequested(limit: number, now: Date): Promise<DeliveryJob[]>;
}
