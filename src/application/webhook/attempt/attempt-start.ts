import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { AttemptStep, decideAttempt, stepAtSlot } from '../../../domain/webhook/attempt-decision';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { Random } from '../delivery/random.port';
import { SubscriptionDeliveryState } from '../delivery/subscription-delivery-state';
import { WebhookSettings } from '../delivery/webhook-settings.port';
import { HeldDeliveries } from '../held/held-deliveries.port';
import { AttemptInput, jobOf } from './attempt-input';
import { DeliveryAttemptReport } from './delivery-attempt-report';
import { AttemptToSend, DeliveryClaim } from './delivery-claim';
import { DeliveryClaims } from './delivery-claims.port';
import { PageTurnHandOver } from './page-turn-hand-over';
import { PutOffAttempts } from './put-off-attempts.port';

/** A claimed attempt the domain decided to send; `probe` when it is its subscription's breaker probe. */
export interface ClaimedToSend {
  claim: DeliveryClaim;
  probe: boolean;
}

/**
 * The start of a claimed attempt: the claim, the one step the domain decides (attempt-decision.ts),
 * and every step but sending applied here: ended unsent, held with its subscription, or put off to
 * its time. PostgreSQL holds the truth; the queue only wakes workers, so a lost job is found again
 * by the sweeper and a duplicate job finds nothing to claim.
 */
@Injectable()
export class AttemptStart {
  constructor(
    private readonly deliveries: DeliveryClaims,
    private readonly state: SubscriptionDeliveryState,
    private readonly held: HeldDeliveries,
    private readonly putOffs: PutOffAttempts,
    private readonly queue: DeliveryQueue,
    private readonly handOver: PageTurnHandOver,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** The claimed attempt to send, or the report of what was done instead (`skipped` when it could not be claimed). */
  async begin(input: AttemptInput): Promise<ClaimedToSend | DeliveryAttemptReport> {
    const numbers = { deliveryId: input.deliveryId, attempt: input.attempt };
    const claim = input.claimed ?? (await this.deliveries.claim({ deliveryId: input.deliveryId, eventId: input.eventId }, input.attempt, this.clock.now(), this.settings.attemptLockMs));
    if (!claim) return { outcome: 'skipped', ...numbers };
    const ids = reportIds(claim);
    const step = await this.decide(claim);
    const now = this.clock.now();
    switch (step.kind) {
      case 'send':
        return { claim, probe: step.probe };
      case 'cancel':
        await this.deliveries.cancel(claim, now, step.status);
        await this.handOver.pass(claim, now, input.followOn);
        return { outcome: step.status, ...ids };
      case 'hold':
        // Not an attempt: parked with its subscription, which wakes it (WakeHeldDeliveries).
        await this.held.hold(claim, now);
        return { outcome: 'held', ...ids };
      case 'put-off':
        // Not an attempt either: nothing is sent or counted, and the job comes back at its time.
        await this.putOffs.putOff(claim, step.until, step.slotTaken, now);
        await this.queue.enqueue([{ ...jobOf(claim, claim.attempt, step.until.getTime() - now.getTime()), requeue: true }]);
        return { outcome: 'put off', ...ids, putOffUntil: step.until.toISOString() };
    }
  }

  /** The domain's step for this attempt; a rate slot it needs is taken first, then it decides again. */
  private async decide(claim: DeliveryClaim): Promise<Exclude<AttemptStep, { kind: 'take-slot' }>> {
    const situation = { eventType: claim.eventType, manual: claim.manual !== null, probe: claim.probe, subscription: claim.subscription, pace: claim.pace };
    const now = this.clock.now();
    const step = decideAttempt(situation, now, this.random.next());
    if (step.kind !== 'take-slot') return step;
    const slotAt = await this.state.takeRateSlot(claim.tenantId, claim.subscription.id, now);
    return stepAtSlot(slotAt, now);
  }
}

/** The ids a report of an attempt carries, and `trigger` for one a customer asked for. */
export function reportIds(attempt: AttemptToSend): Pick<DeliveryAttemptReport, 'deliveryId' | 'attempt' | 'eventId' | 'subscriptionId' | 'trigger'> {
  return { deliveryId: attempt.deliveryId, attempt: attempt.attempt, eventId: attempt.eventId, subscriptionId: attempt.subscription.id, ...(attempt.manual && { trigger: 'manual' as const }) };
}
