import type { Queue } from 'bullmq';
import { DeliveryJob, DeliveryJobData, DueAttempt } from '../../application/webhook/delivery/delivery-job';
import { DeliveryQueue } from '../../application/webhook/delivery/delivery-queue.port';
import { DirectAttemptSeal } from '../../application/webhook/attempt/direct-attempt-seal.port';
import type { Disposable } from './bullmq-factory';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const ENQUEUE_TIMEOUT_MS = 3000;
const MIN_RESET_INTERVAL_MS = 2000;
const BACKLOG_PRIORITY = 1;

/**
 * A job's id: `<delivery id>.<attempt>` for one attempt, so that the relay and a retry enqueueing
 * the same attempt twice make one job; `<first delivery id>.<attempt>+<count>` for a group. The
 * sweeper's jobs get a suffix of their own (`.r<time><n>`), so that no job left under the usual id
 * (failed, stuck) can ever stop a stranded delivery from being enqueued again
 * (docs/webhooks.md, failure model).
 */
export function deliveryJobId(job: { deliveryId: string; attempt: number; requeue?: boolean }, sequence = 0, count = 1): string {
  const id = count > 1 ? `${job.deliveryId}.${job.attempt}+${count}` : `${job.deliveryId}.${job.attempt}`;
  return job.requeue ? `${id}.r${Date.now().toString(36)}${sequence}` : id;
}

/**
 * Jobs as the queue gets them: attempts due together (the relay's and the sweeper's) for the same
 * tenant and endpoint go up to `perJob` to a job, in the order given; a retry, due on its own
 * schedule, stays alone. Each job costs the queue and the worker a fixed dozen Redis commands and
 * their round trips, so a backlog sent in groups of four costs about a quarter of that per
 * attempt (docs/performance.md).
 */
export function groupIntoJobs(jobs: DeliveryJob[], perJob: number, seal?: DirectAttemptSeal): { first: DeliveryJob; data: DeliveryJobData & { attempts: DueAttempt[] } }[] {
  const groups = new Map<string, { first: DeliveryJob; attempts: DueAttempt[] }[]>();
  for (const job of jobs) {
    const key = `${job.tenantId}\u0000${job.endpoint}\u0000${job.delayMs}\u0000${job.requeue === true}\u0000${job.backlog === true}`;
    const chunks = groups.get(key) ?? [];
    const last = chunks.at(-1);
    const due: DueAttempt = { deliveryId: job.deliveryId, eventId: job.eventId, attempt: job.attempt };
    // A direct part goes sealed or not at all (DirectAttemptSeal): unsealed, the worker would claim it anyway.
    if (job.direct && seal) due.direct = { ...job.direct, seal: seal.seal(job.tenantId, { ...due, direct: job.direct }) };
    if (last && last.attempts.length < perJob) last.attempts.push(due);
    else chunks.push({ first: job, attempts: [due] });
    groups.set(key, chunks);
  }
  return [...groups.values()].flat().map(({ first, attempts }) => ({ first, data: { tenantId: first.tenantId, endpoint: first.endpoint, attempts } }));
}

/**
 * The name of delivery queue `shard` of `shards`: the one queue's name when there is one, so that a
 * single Redis keeps the queue it had. Several carry a hash tag each (`{lp-3}`, with the prefix's
 * letters): on a Redis Cluster each queue's keys share a slot, and the queues spread over the masters.
 */
export function deliveryQueueName(shard: number, shards: number, prefix = 'lp'): string {
  return shards === 1 ? DELIVERY_QUEUE : `${DELIVERY_QUEUE}-{${prefix.replace(/[{}:]/g, '')}-${shard}}`;
}

/**
 * Which of `shards` queues carries a tenant's attempts: a stable hash of its id (FNV-1a), so that a
 * tenant's attempts stay in one queue and the tenants spread over all of them.
 */
export function shardOf(tenantId: string, shards: number): number {
  if (shards === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < tenantId.length; i++) {
    hash ^= tenantId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

/**
 * Enqueues attempts, never waiting long: a failure is thrown at once (the deliveries are safe in
 * PostgreSQL). After a failure the queue and its connection are replaced (at most every 2 s),
 * because BullMQ never retries a connection whose start failed, e.g. when Redis went away during it.
 * With several shards (QUEUE_SHARDS), each tenant's attempts go to its shard's queue.
 */
export class BullmqDeliveryQueue extends DeliveryQueue {
  private readonly shards: ShardQueue[];

  constructor(
    make: (shard: number) => Disposable<Queue>,
    private readonly attemptsPerJob = 1,
    shards = 1,
    /** Seals first attempts made ready to send; without it, jobs carry none and every attempt is claimed. */
    private readonly seal?: DirectAttemptSeal,
  ) {
    super();
    this.shards = Array.from({ length: shards }, (_, shard) => new ShardQueue(() => make(shard)));
  }

  async enqueue(jobs: DeliveryJob[]): Promise<void> {
    if (this.shards.length === 1) return this.shards[0].add(groupIntoJobs(jobs, this.attemptsPerJob, this.seal));
    const byShard = new Map<number, DeliveryJob[]>();
    for (const job of jobs) {
      const shard = shardOf(job.tenantId, this.shards.length);
      const list = byShard.get(shard);
      if (list) list.push(job);
      else byShard.set(shard, [job]);
    }
    // Every shard is tried; the first failure is thrown once all have answered (the sweeper re-enqueues).
    const results = await Promise.allSettled([...byShard].map(([shard, list]) => this.shards[shard].add(groupIntoJobs(list, this.attemptsPerJob, this.seal))));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * The add time of the oldest job waiting in any shard (fresh or a backlog; one read of each
   * shard's two lists' heads), within ENQUEUE_TIMEOUT_MS; null when none waits.
   */
  async waitingSince(): Promise<Date | null> {
    const heads = await withTimeout(Promise.all(this.shards.map((s) => s.current.value.getJobs(['wait', 'prioritized'], 0, 0, true))));
    const times = heads.flat().map((job) => job.timestamp);
    return times.length > 0 ? new Date(Math.min(...times)) : null;
  }

  /** Shard `shard`'s BullMQ queue in use now (it is replaced after a failed connection start). */
  queue(shard = 0): Queue {
    return this.shards[shard].current.value;
  }

  /** Every shard's queue in use now. */
  queues(): Queue[] {
    return this.shards.map((s) => s.current.value);
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.current.dispose()));
  }
}

/** One shard's queue, replaced after a failure. */
class ShardQueue {
  current: Disposable<Queue>;
  private lastReset = 0;

  constructor(private readonly make: () => Disposable<Queue>) {
    this.current = make();
  }

  async add(groups: ReturnType<typeof groupIntoJobs>): Promise<void> {
    const adding = this.current.value.addBulk(
      groups.map(({ first, data }, i) => ({
        name: 'deliver',
        data,
        // Nothing is kept in Redis after a job ends: PostgreSQL holds each attempt's record.
        opts: {
          jobId: deliveryJobId(first, i, data.attempts.length),
          delay: first.delayMs,
          removeOnComplete: true,
          removeOnFail: true,
          attempts: 1,
          // BullMQ hands out jobs with no priority before any with one: a backlog goes after fresh work.
          ...(first.backlog && { priority: BACKLOG_PRIORITY }),
        },
      })),
    );
    try {
      await withTimeout(adding);
    } catch (error) {
      this.replace();
      throw error;
    }
  }

  private replace(): void {
    if (Date.now() - this.lastReset < MIN_RESET_INTERVAL_MS) return;
    this.lastReset = Date.now();
    const old = this.current;
    this.current = this.make();
    void old.dispose().catch(() => {});
  }
}

/** `work`, or a rejection after ENQUEUE_TIMEOUT_MS (a Redis that went away answers nothing). */
async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('queue did not answer')), ENQUEUE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(() => {});
  }
}
