import type { Queue } from 'bullmq';
import { DeliveryJob, DeliveryQueue } from '../../application/webhook/delivery.ports';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const ENQUEUE_TIMEOUT_MS = 3000;

/** What a job carries: ids only. The signing secret never enters the queue. */
export interface DeliveryJobData {
  deliveryId: string;
  attempt: number;
}

/** One job per attempt, id `<delivery id>.<attempt>`: enqueueing the same attempt twice is a no-op. */
export function deliveryJobId(job: { deliveryId: string; attempt: number }): string {
  return `${job.deliveryId}.${job.attempt}`;
}

export class BullmqDeliveryQueue extends DeliveryQueue {
  constructor(private readonly queue: Queue) {
    super();
  }

  async enqueue(jobs: DeliveryJob[]): Promise<void> {
    const adding = this.queue.addBulk(
      jobs.map((job) => ({
        name: 'deliver',
        data: { deliveryId: job.deliveryId, attempt: job.attempt } satisfies DeliveryJobData,
        opts: { jobId: deliveryJobId(job), delay: job.delayMs, removeOnComplete: true, removeOnFail: 1000, attempts: 1 },
      })),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('queue did not answer')), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([adding, timeout]);
    } finally {
      clearTimeout(timer);
      adding.catch(() => {});
    }
  }
}
