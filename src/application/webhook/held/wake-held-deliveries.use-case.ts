import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { heldWake } from '../../../domain/webhook/delivery-pace';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { SubscriptionDeliveryState } from '../delivery/subscription-delivery-state';
import { WebhookSettings } from '../delivery/webhook-settings.port';
import { HeldDeliveries } from './held-deliveries.port';
import { HeldPages } from './held-pages';

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
    private readonly pages: HeldPages,
    private readonly state: SubscriptionDeliveryState,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
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
      else if (wake === 'release' && subscription.deleted) released += await this.pages.releaseDeleted(subscription, now);
      else if (wake === 'release') released += await this.releasePage(subscription.tenantId, subscription.id, now);
    }
    return { probes, released };
  }

  /** One page of a subscription's held deliveries, now if it may. */
  private async releasePage(tenantId: string, subscriptionId: string, now: Date): Promise<number> {
    const jobs = await this.state.changed(tenantId, subscriptionId, [] as DeliveryJob[], (subscription) => this.pages.releasePage(subscription, now));
    return this.pages.enqueue(jobs);
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
}
