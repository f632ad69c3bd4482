import { DeliveryJob } from './delivery-job';

/** The job queue that wakes a worker for each attempt (BullMQ). Idempotent per (delivery, attempt). */
export abstract class DeliveryQueue {
  abstract enqueue(jobs: DeliveryJob[]): Promise<void>;
}
