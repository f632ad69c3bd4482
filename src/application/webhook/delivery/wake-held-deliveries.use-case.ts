import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { RELEASE_PAGE, releasePlan } from '../../../domain/webhook/attempt-decision';
import { DeliveryQueue } from './delivery-queue.port';
import { HeldDeliveries, ReleasePlan } from './held-deliveries.port';
import { Random } from './random.port';
import { WebhookSettings } from './webhook-settings.port';

/**
 * The one wake-up of each subscription's held deliveries (no storms, issue 42): while its breaker
 * is open, one probe when the probe is due; once it closed (or a Retry-After ended), the held
 * deliveries in pages of at most 1,000, spread over at least a second and at the subscription's
 * rate where it has one. Run by the worker on the sweeper's interval: PostgreSQL holds what is
 * held, so nothing is lost with the queue.
 */
@Injectable()
export class WakeHeldDeliveries {
  constructor(
    private readonly held: HeldDeliveries,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
    private readonly random: Random,
  ) {}

  async execute(input: { limit: number }): Promise<{ probes: number; released: number }> {
    const now = this.clock.now();
    let probes = 0;
    let released = 0;
    for (const subscription of await this.held.due(now, input.limit)) {
      if (subscription.probing) {
        const probe = await this.held.wakeProbe(subscription.id, now, new Date(now.getTime() + this.settings.attemptLockMs));
        if (probe) await this.queue.enqueue([probe]);
        probes += probe ? 1 : 0;
      } else {
        released += await this.releasePage(subscription.id, subscription.ratePerSecond, now);
      }
    }
    return { probes, released };
  }

  /** One page of a subscription's held deliveries, now (also when its breaker has just closed). */
  async releasePage(subscriptionId: string, ratePerSecond: number | null, now: Date): Promise<number> {
    const plan: ReleasePlan = (count) => releasePlan(count, ratePerSecond, () => this.random.next());
    const jobs = await this.held.release(subscriptionId, now, RELEASE_PAGE, plan);
    // If the queue fails here the released deliveries are due and unleased: the sweeper enqueues them.
    // A backlog: handed out after every fresh job, so other tenants' new events do not queue behind it.
    if (jobs.length > 0) await this.queue.enqueue(jobs.map((job) => ({ ...job, backlog: true })));
    return jobs.length;
  }
}
