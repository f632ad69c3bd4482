import { DeliveryJob } from './delivery-job';

/** The job queue that wakes a worker for each attempt (BullMQ). Idempotent per (delivery, attempt). */
export abstract class DeliveryQueue {
  abstract enqueue(jobs: DeliveryJob[]): Promise<void>;

  /**
   * When the oldest job still waiting to be handed out was added; null when none waits. Jobs are
   * handed out in the order they came (within their priority), so a delivery handed to the queue
   * since then may still have its job waiting behind that one (the sweeper leaves it alone).
   */
  abstract waitingSince(): Promise<Date | null>;
}
