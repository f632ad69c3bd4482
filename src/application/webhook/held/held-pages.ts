import { Injectable } from '@nestjs/common';
import { RELEASE_PAGE, releasePlan } from '../../../domain/webhook/attempt-decision';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { Random } from '../delivery/random.port';
import { HeldDeliveries, HeldOwner, ReleasePlan } from './held-deliveries.port';

/** Deliveries held in one statement when a breaker opens; any left are held as they are claimed. */
const HOLD_AT_ONCE = 10_000;

/**
 * A subscription's held deliveries moved as a whole: all held when its breaker opens, released a
 * page at a time (at most 1,000, spread over at least a second and at its rate where it has one)
 * when it closes or a Retry-After ends. Whether they may move is the subscription's, decided
 * under its lock by the caller (SubscriptionDeliveryState.changed), in the same unit of work.
 */
@Injectable()
export class HeldPages {
  constructor(
    private readonly held: HeldDeliveries,
    private readonly queue: DeliveryQueue,
    private readonly random: Random,
  ) {}

  /** The breaker has just opened: what waits for it is held now, so its jobs find nothing to take. */
  async holdAll(subscriptionId: string, now: Date): Promise<void> {
    await this.held.holdAll(subscriptionId, now, HOLD_AT_ONCE);
  }

  /** The next page of the live subscription's held deliveries, when it may go now; their jobs, to enqueue once committed. */
  async releasePage(subscription: WebhookSubscription, now: Date): Promise<DeliveryJob[]> {
    if (subscription.heldWake(now) !== 'release') return [];
    const { jobs, spreadMs } = await this.held.release(subscription, now, RELEASE_PAGE, this.plan(subscription.rateLimitPerSecond));
    if (jobs.length > 0) subscription.pageReleased(new Date(now.getTime() + spreadMs));
    return jobs;
  }

  /** A deleted subscription keeps no state: the next page of what it held goes (and ends unsent as it is claimed). */
  async releaseDeleted(owner: HeldOwner, now: Date): Promise<number> {
    return this.enqueue((await this.held.release(owner, now, RELEASE_PAGE, this.plan(null))).jobs);
  }

  /**
   * Released deliveries go to the queue as a backlog: handed out after every fresh job, so other
   * tenants' new events do not queue behind it. If the queue fails here they are due and
   * unleased: the sweeper enqueues them.
   */
  async enqueue(jobs: DeliveryJob[]): Promise<number> {
    if (jobs.length > 0) await this.queue.enqueue(jobs.map((job) => ({ ...job, backlog: true })));
    return jobs.length;
  }

  private plan(ratePerSecond: number | null): ReleasePlan {
    return (count) => releasePlan(count, ratePerSecond, () => this.random.next());
  }
}
