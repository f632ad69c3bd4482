import { DeliveryJob } from '../delivery/delivery-job';

/** What one relay round did: events published, the jobs of the deliveries it made, and where the next may start. */
export interface FannedOut {
  events: number;
  deliveries: DeliveryJob[];
  /** More events may be waiting (the round was full, or cut to its bound). */
  more: boolean;
  /** The last event it published. */
  through?: string;
}

/** The relay's two moves, as RelayOutbox runs them each round. */
export abstract class OutboxRelay {
  /**
   * Claims up to `limit` unpublished events, in id order from `from` (null: from the first), fewer
   * when their deliveries would exceed the round's bound, and turns them into deliveries, one per
   * matching active subscription, published in the same transaction.
   */
  abstract fanOut(limit: number, now: Date, from?: string | null): Promise<FannedOut>;
  /**
   * Up to `limit` manual deliveries (DeliveryRequests) not yet handed to the queue, marked handed
   * now: a lost hand-over is then the sweeper's, as for any delivery.
   */
  abstract takeRequested(limit: number, now: Date): Promise<DeliveryJob[]>;
}
