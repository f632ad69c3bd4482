import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { RELEASE_PAGE, releasePlan } from '../../../domain/webhook/attempt-decision';
import { heldWake } from '../../../domain/webhook/delivery-pace';
import { DeliveryJob } from './delivery-job';
import { DeliveryQueue } from './delivery-queue.port';
import { HeldDeliveries, ReleasePlan } from './held-deliveries.port';
import { Random } from './random.port';
import { SubscriptionDeliveryState } from './subscription-delivery-state';
import { WebhookSettings } from './webhook-settings.port';

/**
 * The one wake-up of each subscription's held deliveries (no storms, issue 42): while its breaker
 * is open, one probe when the probe is due; once it closed (or a Retry-After ended), the held
 * deliveries in pages of at most 1,000, spread over at least a second and at the subscription's
 * rate where it has one. Run by the worker on the sweeper's interval: PostgreSQL holds what is
 * held, so nothing is lost with the queue. Whether a subscription wakes is the domain's
 * (delivery-pace.ts heldWake), decided again under its row lock before anything moves.
 */
@Injectable()
export class WakeHeldDeliveries {
  /** Where the last tick stopped: many holding subscriptions are looked at `limit` a tick, in turn. */
  private after = '';

  constructor(
    private readonly held: HeldDeliveries,
    private readonly state: SubscriptionDeliveryState,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
    private readonly random: Random,
  ) {}

  async execute(input: { limit: number }): Promise<{ probes: number; released: number }> {
    const now = this.clock.now();
    const holding = await this.held.holding(this.after, input.limit);
    this.after = holding.length === input.limit ? holding[holding.length - 1].id : '';
    let probes = 0;
    let released = 0;
    for (const subscription of holding) {
      const wake = heldWake(subscription, now);
      if (wake === 'probe') probes += (await this.wakeProbe(subscription.tenantId, subscription.id, now)) ? 1 : 0;
      // A deleted subscription keeps no state: what it held goes (and ends unsent as it is claimed).
      else if (wake === 'release' && subscription.deleted) released += await this.enqueued((await this.held.release(subscription, now, RELEASE_PAGE, this.plan(null))).jobs);
      else if (wake === 'release') released += await this.releasePage(subscription.tenantId, subscription.id, now);
    }
    return { probes, released };
  }

  /** One page of a subscription's held deliveries, now if it may (also when its breaker has just closed). */
  async releasePage(tenantId: string, subscriptionId: string, now: Date): Promise<number> {
    const jobs = await this.state.changed(tenantId, subscriptionId, [] as DeliveryJob[], async (subscription) => {
      if (subscription.heldWake(now) !== 'release') return [];
      const { jobs, spreadMs } = await this.held.release(subscription, now, RELEASE_PAGE, this.plan(subscription.rateLimitPerSecond));
      if (jobs.length > 0) subscription.pageReleased(new Date(now.getTime() + spreadMs));
      return jobs;
    });
    return this.enqueued(jobs);
  }

  private async wakeProbe(tenantId: string, subscriptionId: string, now: Date): Promise<boolean> {
    const probe = await this.state.changed(tenantId, subscriptionId, null, async (subscription) => {
      if (subscription.heldWake(now) !== 'probe') return null;
      const job = await this.held.wakeProbe(subscription, subscription.pace.lastProbeId, now);
      if (job) subscription.probeWoken(job.deliveryId, new Date(now.getTime() + this.settings.attemptLockMs));
      return job;
    });
    if (probe) await this.queue.enqueue([probe]);
    return probe !== null;
  }

  /**
   * Released deliveries go to the queue as a backlog: handed out after every fresh job, so other
   * tenants' new events do not queue behind it. If the queue fails here they are due and
   * unleased: the sweeper enqueues them.
   */
  private async enqueued(jobs: DeliveryJob[]): Promise<number> {
    if (jobs.length > 0) await this.queue.enqueue(jobs.map((job) => ({ ...job, backlog: true })));
    return jobs.length;
  }

  private plan(ratePerSecond: number | null): ReleasePlan {
    return (count) => releasePlan(count, ratePerSecond, () => this.random.next());
  }
}
