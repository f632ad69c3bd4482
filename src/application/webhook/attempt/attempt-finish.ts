import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { concludeAttempt } from '../../../domain/webhook/attempt-conclusion';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { Random } from '../delivery/random.port';
import { SubscriptionDeliveryState } from '../delivery/subscription-delivery-state';
import { WebhookSettings } from '../delivery/webhook-settings.port';
import { HeldPages } from '../held/held-pages';
import { FollowOn, jobOf } from './attempt-input';
import { BreakersSeenOpen } from './breakers-seen-open';
import { DeliveryAttemptReport } from './delivery-attempt-report';
import { AttemptResult, AttemptToSend } from './delivery-claim';
import { DeliveryClaims } from './delivery-claims.port';
import { PageTurnHandOver } from './page-turn-hand-over';

/**
 * The end of a sent attempt, decided once (attempt-conclusion.ts concludeAttempt) and applied:
 * its subscription's health, pause and released page in one unit of work, the attempt and the
 * delivery's next state recorded, then what follows (hold the rest, the page's turn, the next
 * attempt's job).
 */
@Injectable()
export class AttemptFinish {
  constructor(
    private readonly state: SubscriptionDeliveryState,
    private readonly deliveries: DeliveryClaims,
    private readonly held: HeldPages,
    private readonly handOver: PageTurnHandOver,
    private readonly queue: DeliveryQueue,
    private readonly seenOpen: BreakersSeenOpen,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  async finish(attempt: AttemptToSend, result: AttemptResult & { sentAt: Date }, probe: boolean, followOn?: FollowOn): Promise<Omit<DeliveryAttemptReport, 'deliveryId' | 'attempt'>> {
    const now = this.clock.now();
    const { subscription } = attempt;
    const { change, conclusion, released } = await this.state.afterAttempt<DeliveryJob>(
      attempt,
      result,
      now,
      probe,
      (health) => concludeAttempt({ attempt: attempt.attempt, manual: attempt.manual !== null, ordered: attempt.orderKey !== null, answer: result, health, schedule: this.settings.retrySchedule }, now, this.random.next()),
      (locked) => this.held.releasePage(locked, now),
    );
    if (change === 'breaker-opened') this.seenOpen.opened(subscription.id, now);
    const { next } = conclusion;
    await this.deliveries.record(attempt, result, next, now);
    if (conclusion.holdAll) await this.held.holdAll(subscription.id, now);
    await this.held.enqueue(released);
    const report = { ...result, ...(change && { health: change }), ...(change === 'disabled' && { subscriptionDisabled: true }) };
    if (conclusion.passTurn) await this.handOver.pass(attempt, now, followOn);
    if (next.status !== 'pending') return { outcome: next.status, ...report };
    // If the queue is down this throws after the attempt is recorded; the sweeper re-enqueues it.
    if (conclusion.retryAt) await this.queue.enqueue([jobOf(attempt, attempt.attempt + 1, conclusion.retryAt.getTime() - now.getTime())]);
    return { outcome: 'retrying', ...report };
  }
}
