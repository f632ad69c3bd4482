import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { DeliveryJob, unclaimedStartBound } from '../delivery/delivery-job';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { DeliveryTurns } from '../delivery/delivery-turns.port';
import { StrandedDeliveries } from './stranded-deliveries.port';
import { WebhookSettings } from '../delivery/webhook-settings.port';

/**
 * A delivery's time of handing to the queue is taken a moment before its job's time of adding:
 * the oldest waiting job's own deliveries must not look older than it.
 */
const ADD_TIME_MARGIN_MS = 1000;

/**
 * Re-enqueues deliveries that are due but have no live job: the queue lost its data, a worker was
 * killed mid-attempt, the attempt failed inside (database, Redis, a bug), or enqueueing failed.
 * A delivery is left to its job for one lease (WEBHOOK_ATTEMPT_LOCK_MS) before it counts as
 * stranded, and the new job has an id of its own (nothing in the queue can block it). A job that
 * still exists after all makes a duplicate at most, which finds nothing to claim. Ordered
 * deliveries waiting behind a turn nobody holds (the worker stopped before passing it on) are
 * passed theirs (DeliveryTurns.passStalled).
 */
@Injectable()
export class SweepDeliveries {
  constructor(
    private readonly deliveries: StrandedDeliveries,
    private readonly turns: DeliveryTurns,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
  ) {}

  async execute(input: { limit: number }): Promise<number> {
    const lease = this.settings.attemptLockMs;
    // A backlog longer than a lease is not stranded: what was handed to the queue after its oldest
    // waiting job waits behind it (without this, each sweep made a second job for every delivery of
    // a long backlog, and the duplicates slowed the drain that had made it long). Unknown (the
    // queue unreachable): every delivery past its lease counts, as it would with the queue lost.
    const waitingSince = await this.queue.waitingSince().catch(() => null);
    const queuedBefore = waitingSince ? new Date(waitingSince.getTime() - ADD_TIME_MARGIN_MS) : undefined;
    const stranded = await this.deliveries.findStranded(this.clock.now(), input.limit, lease, lease + unclaimedStartBound(lease), queuedBefore);
    // A pass of stalled turns that fails must not keep the stranded rows (marked enqueued as they
    // were found) from their jobs: what was taken is enqueued, then the failure is told. A backlog
    // too (all of it, after Redis lost its data): fresh jobs are handed out first.
    let passed: DeliveryJob[] = [];
    let failure: { error: unknown } | undefined;
    try {
      passed = await this.turns.passStalled(this.clock.now(), input.limit);
    } catch (error) {
      failure = { error };
    }
    const jobs = [...stranded, ...passed];
    if (jobs.length > 0) await this.queue.enqueue(jobs.map((job) => ({ ...job, requeue: true, backlog: true })));
    if (failure) throw failure.error;
    return jobs.length;
  }
}
