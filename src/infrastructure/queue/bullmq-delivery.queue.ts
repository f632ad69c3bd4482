import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { DeliveryBatchJobData, DeliveryJob, DeliveryJobData, DeliveryQueue } from '../../application/webhook/delivery.ports';
import type { Disposable } from './bullmq-factory';

export const DELIVERY_QUEUE = 'webhook-deliveries';
/** Job names: one attempt, or several attempts due now. */
export const DELIVER = 'deliver';
export const DELIVER_BATCH = 'deliver-batch';
/**
 * Attempts due now share jobs of up to this many: each job costs two Lua scripts in Redis and
 * their round trips (a third of a delivery's cost when every attempt had its own job).
 */
export const BATCH_SIZE = 20;
const ENQUEUE_TIMEOUT_MS = 3000;
const MIN_RESET_INTERVAL_MS = 2000;

/** One attempt's job id, `<delivery id>.<attempt>`: enqueueing the same retry twice is a no-op. */
export function deliveryJobId(job: { deliveryId: string; attempt: number }): string {
  return `${job.deliveryId}.${job.attempt}`;
}

export interface PlannedJob {
  name: typeof DELIVER | typeof DELIVER_BATCH;
  data: DeliveryJobData | DeliveryBatchJobData;
  jobId: string;
  delay: number;
}

/**
 * The jobs for a list of attempts. Delayed attempts (retries) keep a job each, since each has its
 * own time. Attempts due now go in batches; a batch's id is a digest of its attempts, so adding
 * the same batch again is a no-op and a different one never takes its place.
 */
export function planDeliveryJobs(jobs: DeliveryJob[], batchSize = BATCH_SIZE): PlannedJob[] {
  const single = (job: DeliveryJob): PlannedJob => ({
    name: DELIVER,
    data: { deliveryId: job.deliveryId, attempt: job.attempt } satisfies DeliveryJobData,
    jobId: deliveryJobId(job),
    delay: job.delayMs,
  });
  const due = jobs.filter((job) => job.delayMs <= 0);
  const planned = jobs.filter((job) => job.delayMs > 0).map(single);
  for (let start = 0; start < due.length; start += batchSize) {
    const chunk = due.slice(start, start + batchSize);
    if (chunk.length === 1) {
      planned.push(single(chunk[0]));
      continue;
    }
    const attempts = chunk.map((job) => ({ deliveryId: job.deliveryId, attempt: job.attempt }));
    const digest = createHash('sha256').update(attempts.map(deliveryJobId).join(',')).digest('base64url').slice(0, 22);
    planned.push({ name: DELIVER_BATCH, data: { attempts } satisfies DeliveryBatchJobData, jobId: `batch.${digest}`, delay: 0 });
  }
  return planned;
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
      planDeliveryJobs(jobs).map((job) => ({
        name: job.name,
        data: job.data,
        opts: { jobId: job.jobId, delay: job.delay, removeOnComplete: true, removeOnFail: 1000, attempts: 1 },
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
