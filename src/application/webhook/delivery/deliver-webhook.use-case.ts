import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { AttemptSituation, AttemptStep, decideAttempt, heldAfterAttempt } from '../../../domain/webhook/attempt-decision';
import { nextStep, outcomeOf, retryAfterBound } from '../../../domain/webhook/retry-policy';
import { secretsStillValid } from '../../../domain/webhook/webhook-subscription';
import { BreakersSeenOpen } from './breakers-seen-open';
import { DeliveryAttemptReport } from './delivery-attempt-report';
import { DeliveryClaim, DeliveryJob, DIRECT_WINDOW_MS, DueAttempt, unclaimedStartBound } from './delivery-job';
import { DeliveryQueue } from './delivery-queue.port';
import { DeliveryClaims } from './delivery-claims.port';
import { DeliveryTurns } from './delivery-turns.port';
import { HeldDeliveries } from './held-deliveries.port';
import { SubscriptionDeliveryState } from './subscription-delivery-state';
import { SubscriptionPace } from './subscription-pace.port';
import { SubscriptionTargets } from './subscription-targets.port';
import { Random } from './random.port';
import { WakeHeldDeliveries } from './wake-held-deliveries.use-case';
import { WebhookSender } from './webhook-sender.port';
import { WebhookSettings } from './webhook-settings.port';
import { WebhookSigner } from './webhook-signer.port';

/** Deliveries held in one statement when a breaker opens; any left are held as they are claimed. */
const HOLD_AT_ONCE = 10_000;

/**
 * An attempt as its job asks for it, with the job's tenant and endpoint; `requestEnded` is told
 * when its request to the receiver is over (the endpoint's slot, InFlightLimits). `followOn`, when
 * given, lets the attempt hand its slot to the delivery an ordered page's turn passes to, which
 * then starts at once in this worker, already claimed (`claimed`); otherwise its job is enqueued.
 */
export type AttemptInput = DueAttempt & { tenantId: string; endpoint: string; requestEnded?: () => void; followOn?: FollowOn; claimed?: DeliveryClaim };

/** The worker's side of a hand-over: the slot of the attempt that ends, kept for the page's next delivery. */
export interface FollowOn {
  /** Takes the slot for the next delivery; null when the worker will not start it here (it is stopping, or the slot went to a waiter). */
  reserve(): NextSlot | null;
}

/** A slot kept for a page's next delivery: started with its claim, or given back when there is none. */
export interface NextSlot {
  start(next: DeliveryJob, claim: DeliveryClaim): void;
  cancel(): void;
}

/**
 * One attempt of one delivery: claim it, take the one step the domain decides (attempt-decision.ts),
 * and, when that is to send, send the fixed body signed, record what happened and schedule what
 * follows. PostgreSQL holds the truth; the queue only wakes workers, so a lost job is found again
 * by the sweeper and a duplicate job finds nothing to claim. A first attempt the relay made ready
 * (DirectFirstAttempt) skips the claim: the relay decided it from what it read, honoured for
 * DIRECT_WINDOW_MS (docs/webhooks.md, The attempt's path).
 */
@Injectable()
export class DeliverWebhook {
  constructor(
    private readonly deliveries: DeliveryClaims,
    private readonly targets: SubscriptionTargets,
    private readonly pace: SubscriptionPace,
    private readonly held: HeldDeliveries,
    private readonly wake: WakeHeldDeliveries,
    private readonly turns: DeliveryTurns,
    private readonly state: SubscriptionDeliveryState,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly signer: WebhookSigner,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}
  private readonly seenOpen = new BreakersSeenOpen();

  async execute(input: AttemptInput): Promise<DeliveryAttemptReport> {
    const numbers = { deliveryId: input.deliveryId, attempt: input.attempt };
    const ready = await this.readyFirstAttempt(input);
    if (ready) return { ...numbers, eventId: ready.eventId, subscriptionId: ready.subscription.id, ...(await this.send(ready, false, input)) };
    const claim = input.claimed ?? (await this.deliveries.claim({ deliveryId: input.deliveryId, eventId: input.eventId }, input.attempt, this.clock.now(), this.settings.attemptLockMs));
    if (!claim) return { outcome: 'skipped', ...numbers };
    const ids = { ...numbers, eventId: claim.eventId, subscriptionId: claim.subscription.id, ...(claim.manual && { trigger: 'manual' as const }) };
    const step = await this.decide(claim);
    const now = this.clock.now();
    switch (step.kind) {
      case 'cancel':
        await this.deliveries.cancel(claim, now, step.status);
        await this.passTurn(claim, now, input.followOn);
        return { outcome: step.status, ...ids };
      case 'hold':
        // Not an attempt: parked with its subscription, which wakes it (WakeHeldDeliveries).
        await this.held.hold(claim, now);
        return { outcome: 'held', ...ids };
      case 'put-off':
        // Not an attempt either: nothing is sent or counted, and the job comes back at its time.
        await this.pace.putOff(claim, step.until, step.slotTaken, now);
        await this.queue.enqueue([{ ...this.jobOf(claim, claim.attempt, step.until.getTime() - now.getTime()), requeue: true }]);
        return { outcome: 'put off', ...ids, putOffUntil: step.until.toISOString() };
      case 'send':
        return { ...ids, ...(await this.send(claim, step.probe, input)) };
      case 'take-slot':
        throw new Error('a rate slot was decided twice');
    }
  }

  /**
   * The first attempt as the relay made it ready, sent without a claim: as the relay decided it
   * within DIRECT_WINDOW_MS of its read; later, decided again on the subscription read afresh (one
   * read for the attempts asking at once). Null when it is to be claimed instead: the decision is
   * other than to send now (the claim applies it), the target changed since, the job waited half
   * a lease (the sweeper may have made another job for it), or the last claim or record failed.
   */
  private async readyFirstAttempt(input: AttemptInput): Promise<DeliveryClaim | null> {
    const { direct } = input;
    const now = this.clock.now();
    const age = direct ? now.getTime() - direct.readAt : Infinity;
    if (!direct || input.attempt !== 1 || age > unclaimedStartBound(this.settings.attemptLockMs)) return null;
    // While records fail (the database cut) a claim fails before sending; a breaker opened here since the read holds it.
    if (!this.deliveries.recording() || this.seenOpen.openedSince(direct.subscriptionId, direct.readAt)) return null;
    let { healthy, version } = direct;
    if (age > DIRECT_WINDOW_MS) {
      const fresh = await this.targets.now(direct.subscriptionId);
      if (!fresh) return null;
      const step = decideAttempt({ eventType: direct.eventType, manual: false, probe: false, subscription: fresh.subscription, pace: fresh.pace }, now);
      if (step.kind !== 'send') return null;
      ({ healthy, version } = fresh);
    }
    const target = await this.targets.target(direct.subscriptionId, version);
    if (!target) return null;
    return {
      deliveryId: input.deliveryId,
      attempt: 1,
      tenantId: input.tenantId,
      eventId: direct.eventId,
      eventType: direct.eventType,
      body: direct.body,
      trace: direct.trace,
      // Decided to be sent: active, listening to the event, its breaker closed, no pace to keep.
      subscription: { id: direct.subscriptionId, ...target, active: true, deleted: false, events: [direct.eventType], healthy, disabledReason: null, nextProbeAt: null },
      manual: null,
      probe: false,
      orderKey: direct.orderKey ?? null,
      endpoint: input.endpoint,
      pace: { ratePerSecond: null, notBefore: null, slotAt: null },
    };
  }

  /** The domain's step for this attempt; a rate slot it needs is taken first, then it decides again. */
  private async decide(claim: DeliveryClaim): Promise<AttemptStep> {
    const situation: AttemptSituation = { eventType: claim.eventType, manual: claim.manual !== null, probe: claim.probe, subscription: claim.subscription, pace: claim.pace };
    const now = this.clock.now();
    const step = decideAttempt(situation, now, this.random.next());
    if (step.kind !== 'take-slot') return step;
    const slotAt = await this.state.takeRateSlot(claim.tenantId, claim.subscription.id, now);
    return decideAttempt({ ...situation, pace: { ...claim.pace, slotAt } }, now, this.random.next());
  }

  /** Sends the attempt, records it, tells the endpoint's health, and sets up what follows. */
  private async send(claim: DeliveryClaim, probe: boolean, { requestEnded, followOn }: Pick<AttemptInput, 'requestEnded' | 'followOn'>): Promise<Omit<DeliveryAttemptReport, 'deliveryId' | 'attempt'>> {
    const sentAt = this.clock.now();
    const { subscription } = claim;
    const headers = this.signer.headers({
      eventId: claim.eventId,
      eventType: claim.eventType,
      body: claim.body,
      signingSecret: subscription.signingSecret,
      previousSecrets: secretsStillValid(subscription.previousSecrets, sentAt),
      sentAt,
    });
    const result = await this.sender.send({
      url: subscription.url,
      body: claim.body,
      headers,
      trace: claim.trace,
      attempt: { deliveryId: claim.deliveryId, eventId: claim.eventId, eventType: claim.eventType, subscriptionId: subscription.id, tenantId: claim.tenantId, number: claim.attempt },
    });
    requestEnded?.();
    const now = this.clock.now();
    const manual = claim.manual !== null;
    const outcome = outcomeOf(result.statusCode, result.retryAfterMs);
    const { change, breakerOpen } = await this.state.afterAttempt(claim, outcome, now, probe);
    if (change === 'breaker-opened') this.seenOpen.opened(subscription.id, now);
    // A manual delivery is one attempt: its own schedule is empty, the original's is left alone.
    let next = nextStep(claim.attempt, outcome, manual ? [] : this.settings.retrySchedule, now, this.random.next());
    if (heldAfterAttempt({ manual, breakerOpen, next: next.status, reason: next.status === 'failed' ? next.reason : undefined })) next = { status: 'pending', nextAttemptAt: null };
    await this.deliveries.record(claim, { ...result, sentAt }, next, now);
    // The breaker opened: what waits for it is held now, so its jobs find nothing to take.
    if (change === 'breaker-opened') await this.held.holdAll(subscription.id, now, HOLD_AT_ONCE);
    if (change === 'recovered') await this.wake.releasePage(claim.tenantId, subscription.id, now);
    // The receiver asked for a pause: every attempt to it waits, not only this delivery's next.
    const pause = retryAfterBound(result.retryAfterMs);
    if (pause > 0) await this.state.pauseUntil(claim.tenantId, subscription.id, new Date(now.getTime() + pause));
    const report = { ...result, sentAt, ...(change && { health: change }), ...(change === 'disabled' && { subscriptionDisabled: true }) };
    if (next.status !== 'pending') {
      await this.passTurn(claim, now, followOn);
      return { outcome: next.status, ...report };
    }
    // Held with its subscription (the breaker is open): no job; the worker wakes it.
    if (next.nextAttemptAt === null) return { outcome: 'retrying', ...report };
    // If the queue is down this throws after the attempt is recorded; the sweeper re-enqueues it.
    await this.queue.enqueue([this.jobOf(claim, claim.attempt + 1, next.nextAttemptAt.getTime() - now.getTime())]);
    return { outcome: 'retrying', ...report };
  }

  /**
   * An ordered delivery has ended: its page's next one gets the turn. When the worker keeps this
   * attempt's slot for it, the pass also claims it and it starts from here (no queue job and no
   * claim of its own between two versions of a page); else its job is enqueued. If this fails
   * (the database cut) the turn stays with nobody; the sweeper passes it on
   * (DeliveryTurns.passStalled).
   */
  private async passTurn(claim: DeliveryClaim, now: Date, followOn?: FollowOn): Promise<void> {
    if (claim.orderKey === null) return;
    const turn = { tenantId: claim.tenantId, subscriptionId: claim.subscription.id, orderKey: claim.orderKey };
    const slot = followOn?.reserve() ?? null;
    if (!slot) {
      const next = await this.turns.passOn(turn, now);
      if (next) await this.queue.enqueue([next]);
      return;
    }
    const passed = await this.turns.passOnClaiming(turn, now, this.settings.attemptLockMs).catch((error: unknown) => {
      slot.cancel();
      throw error;
    });
    if (passed?.claim) return slot.start(passed.job, passed.claim);
    slot.cancel();
    // Passed but taken by another first (a duplicate job): this job finds nothing, as any duplicate.
    if (passed) await this.queue.enqueue([passed.job]);
  }

  private jobOf(claim: DeliveryClaim, attempt: number, delayMs: number) {
    return { deliveryId: claim.deliveryId, eventId: claim.eventId, attempt, delayMs: Math.max(0, delayMs), tenantId: claim.tenantId, endpoint: claim.endpoint };
  }
}
