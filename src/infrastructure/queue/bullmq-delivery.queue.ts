import type { Queue } from 'bullmq';
import { DeliveryJob, DeliveryJobData, DeliveryQueue } from '../../application/webhook/delivery.ports';
import type { Disposable } from './bullmq-factory';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const ENQUEUE_TIMEOUT_MS = 3000;
const MIN_RESET_INTERVAL_MS = 2000;

/**
 * One job per attempt, id `<delivery id>.<attempt>`: the relay and a retry enqueueing the same
 * attempt twice make one job. The sweeper's jobs get a suffix of their own (`.r<time><n>`), so
 * that no job left under the usual id (failed, stuck) can ever stop a stranded delivery from
 * being enqueued again (../shared/spec/decisions.md, Webhooks).
 */
export function deliveryJobId(job: { deliveryId: string; attempt: number; requeue?: boolean }, sequence = 0): string {
  return job.requeue ? `${job.deliveryId}.${job.attempt}.r${Date.now().toString(36)}${sequence}` : `${job.deliveryId}.${job.attempt}`;
}

/**
 * Enqueues attempts, never waiting long: a failure is thrown at once (the deliveries are safe in
 * PostgreSQL). After a failure the queue and its connection are replaced (at most every 2 s),
 * because BullMQ never retries a connection whose start failed, e.g. when Redis went away during it.
 */
export class BullmqDeliveryQueue extends DeliveryQueue {
  private current: Disposable<Queue>;
  private lastReset = 0;

  constructor(private readonly make: () => Disposable<Queue>) {
    super();
    this.current = make();
  }

  async enqueue(jobs: DeliveryJob[]): Promise<void> {
    const adding = this.current.value.addBulk(
      jobs.map((job, i) => ({
        name: 'deliver',
        data: { deliveryId: job.deliveryId, attempt: job.attempt, tenantId: job.tenantId, endpoint: job.endpoint } satisfies DeliveryJobData,
        // Nothing is kept in Redis after a job ends: PostgreSQL holds each attempt's record.
        opts: { jobId: deliveryJobId(job, i), delay: job.delayMs, removeOnComplete: true, removeOnFail: true, attempts: 1 },
      })),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('queue did not answer')), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([adding, timeout]);
    } catch (error) {
      this.replace();
      throw error;
    } finally {
      clearTimeout(timer);
      adding.catch(() => {});
    }
  }

  /** The BullMQ queue in use now (it is replaced after a failed connection start). */
  queue(): Queue {
    return this.current.value;
  }

  close(): Promise<void> {
    return this.current.dispose();
  }

  private replace(): void {
    if (Date.now() - this.lastReset < MIN_RESET_INTERVAL_MS) return;
    this.lastReset = Date.now();
    const old = this.current;
    this.current = this.make();
    void old.dispose().catch(() => {});
  }
}
