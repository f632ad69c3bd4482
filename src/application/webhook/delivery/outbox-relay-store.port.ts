import { DeliveryJob } from './delivery-job';

/** Turns committed outbox events into deliveries, one per matching active subscription. */
export abstract class OutboxRelayStore {
  /**
   * Claims up to `limit` unpublished events, fewer when their deliveries would exceed the round's
   * bound; returns how many, the deliveries made, and whether more events may be waiting.
   */
  abstract fanOut(limit: number, now: Date): Promise<{ events: number; deliveries: DeliveryJob[]; more: boolean }>;
  /**
   * Up to `limit` manual deliveries (DeliveryRequests) not yet handed to the queue, marked handed
   * now: a lost hand-over is then the sweeper's, as for any delivery.
   */
  abstract takeRequested(limit: number, now: Date): Promise<DeliveryJob[]>;
}
