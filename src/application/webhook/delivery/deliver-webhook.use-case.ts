import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { HealthChange, heldUntil } from '../../../domain/webhook/endpoint-health';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { AttemptOutcome, nextStep, outcomeOf, retryAfterBound } from '../../../domain/webhook/retry-policy';
import { secretsStillValid, wantsEvent } from '../../../domain/webhook/webhook-subscription';
import { DeliveryClaim } from './delivery-job';
import { DeliveryQueue } from './delivery-queue.port';
import { DeliveryStore } from './delivery-store.port';
import { Random } from './random.port';
import { WebhookSender } from './webhook-sender.port';
import { WebhookSettings } from './webhook-settings.port';
import { WebhookSigner } from './webhook-signer.port';

export type DeliveryOutcome = 'skipped' | 'cancelled' | 'put off' | 'held' | 'delivered' | 'failed' | 'retrying';

/**
 * How late an attempt may be sent after its rate slot: half the slots' spacing, at least 50 ms.
 * Sent later (its job came back late on a busy machine), it would land next to the following
 * slot's attempt and two would arrive closer than the rate allows: it takes a new slot instead.
 * So every send is within [slot, slot + half a spacing), and any one second holds at most the
 * rate plus one (the window's two ends); a slot given up is lost, not sent twice.
 */
const slotLateness = (ratePerSecond: number) => Math.max(1000 / ratePerSecond / 2, 50);

/** What happened, with the ids a log line of the attempt needs. */
export interface DeliveryAttemptReport {
  outcome: DeliveryOutcome;
  deliveryId: string;
  attempt: number;
  eventId?: string;
  subscriptionId?: string;
  statusCode?: number | null;
  durationMs?: number;
  error?: string | null;
  /** Set for an attempt a customer asked for. */
  trigger?: 'manual';
  /** The platform turned the subscription off (a 410, or failing for too long). */
  subscriptionDisabled?: boolean;
  /** Put off until then, unsent: the receiver's pace (its Retry-After, or the subscription's rate). */
  putOffUntil?: string;
  /** What the attempt changed in the endpoint's health that the customer is told of. */
  health?: Exclude<HealthChange, null>;
  /** The attempt's trace and span, when it was sent. */
  traceId?: string;
  spanId?: string;
}

/**
 * One attempt of one delivery: claim it, send the fixed body signed, record what happened, and
 * schedule the next attempt if there is one. PostgreSQL holds the truth; the queue only wakes
 * workers, so a lost job is found again by the sweeper and a duplicate job finds nothing to claim.
 */
@Injectable()
export class DeliverWebhook {
  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly signer: WebhookSigner,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(input: { deliveryId: string; attempt: number }): Promise<DeliveryAttemptReport> {
    const claim = await this.deliveries.claim(input.deliveryId, input.attempt, this.clock.now(), this.settings.attemptLockMs);
    if (!claim) return { outcome: 'skipped', ...input };
    const ids = { ...input, eventId: claim.eventId, subscriptionId: claim.subscription.id, ...(claim.manual && { trigger: 'manual' as const }) };
    if (!this.wanted(claim)) {
      // Turned off by the platform for failing: what was owed fails, so that `recover` brings it
      // back once the receiver is fixed. Deactivated, deleted or gone: it is cancelled.
      const status = !claim.manual && claim.subscription.disabledReason === 'failing' && !claim.subscription.deleted ? 'failed' : 'cancelled';
      await this.deliveries.cancel(claim, this.clock.now(), status);
      return { outcome: status, ...ids };
    }
    const held = claim.manual ? null : await this.heldByBreaker(claim);
    const probe = held === 'probe';
    if (held instanceof Date) {
      const now = this.clock.now();
      // Held by the open breaker: not an attempt, so its schedule is left as it was.
      await this.deliveries.putOff(claim, held, false, now);
      await this.queue.enqueue([
        { deliveryId: claim.deliveryId, attempt: claim.attempt, delayMs: Math.max(0, held.getTime() - now.getTime()), tenantId: claim.tenantId, endpoint: claim.endpoint, requeue: true },
      ]);
      return { outcome: 'held', ...ids, putOffUntil: held.toISOString() };
    }
    const until = await this.paced(claim);
    if (until) {
      const now = this.clock.now();
      // Not an attempt: nothing is sent or counted, and the job comes back at its time.
      await this.deliveries.putOff(claim, until.at, until.slotTaken, now);
      await this.queue.enqueue([
        { deliveryId: claim.deliveryId, attempt: claim.attempt, delayMs: Math.max(0, until.at.getTime() - now.getTime()), tenantId: claim.tenantId, endpoint: claim.endpoint, requeue: true },
      ]);
      return { outcome: 'put off', ...ids, putOffUntil: until.at.toISOString() };
    }
    const sentAt = this.clock.now();
    const headers = this.signer.headers({
      eventId: claim.eventId,
      eventType: claim.eventType,
      body: claim.body,
      signingSecret: claim.subscription.signingSecret,
      previousSecrets: secretsStillValid(claim.subscription.previousSecrets, sentAt),
      sentAt,
    });
    const result = await this.sender.send({
      url: claim.subscription.url,
      body: claim.body,
      headers,
      trace: claim.trace,
      attempt: { deliveryId: claim.deliveryId, eventId: claim.eventId, eventType: claim.eventType, subscriptionId: claim.subscription.id, tenantId: claim.tenantId, number: claim.attempt },
    });
    const now = this.clock.now();
    // A manual delivery is one attempt: its own schedule is empty, the original's is left alone.
    const schedule = claim.manual ? [] : this.settings.retrySchedule;
    const outcome = outcomeOf(result.statusCode, result.retryAfterMs);
    const { change: health, nextProbeAt } = await this.updateHealth(claim, outcome, now, probe);
    let next = nextStep(claim.attempt, outcome, schedule, now, this.random.next());
    // While the breaker is open a scheduled delivery is never given up for its schedule: it waits
    // for the breaker like the held ones (its failed attempts were probes), so nothing is lost.
    if (nextProbeAt !== null && !claim.manual && next.status === 'failed' && next.reason === 'schedule-exhausted') next = { status: 'pending', nextAttemptAt: nextProbeAt };
    await this.deliveries.record(claim, result, next, now);
    if (health === 'recovered') await this.releaseHeld(claim.subscription.id, now);
    // The receiver asked for a pause: every attempt to it waits, not only this delivery's next.
    const pause = retryAfterBound(result.retryAfterMs);
    if (pause > 0) await this.deliveries.holdSubscription(claim.subscription.id, new Date(now.getTime() + pause));
    const report = { ...ids, ...result, ...(health && { health }), ...(health === 'disabled' && { subscriptionDisabled: true }) };
    if (next.status !== 'pending') return { outcome: next.status, ...report };
    // If the queue is down this throws after the attempt is recorded; the sweeper re-enqueues it.
    const delayMs = Math.max(0, next.nextAttemptAt.getTime() - now.getTime());
    await this.queue.enqueue([{ deliveryId: claim.deliveryId, attempt: claim.attempt + 1, delayMs, tenantId: claim.tenantId, endpoint: claim.endpoint }]);
    return { outcome: 'retrying', ...report };
  }

  /**
   * Every finished attempt, manual ones too, tells the endpoint's health (endpoint-health.ts). A
   * success to an endpoint that was healthy changes nothing but its last success, which the
   * record noted; anything else goes through the rules under the subscription's row lock.
   */
  private async updateHealth(claim: DeliveryClaim, outcome: AttemptOutcome, at: Date, probe: boolean): Promise<{ change: HealthChange; nextProbeAt: Date | null }> {
    if (outcome.kind === 'delivered' && claim.subscription.healthy) return { change: null, nextProbeAt: null };
    // Under the subscription's row lock: attempts finishing at once take turns, and the events
    // the change records commit with it.
    return this.unitOfWork.run(async () => {
      const subscription = await this.subscriptions.findById(claim.tenantId, claim.subscription.id, { forUpdate: true });
      if (!subscription) return { change: null, nextProbeAt: null };
      const change = subscription.attemptFinished(outcome.kind, at, this.settings.health, probe);
      await this.subscriptions.saveHealth(subscription);
      return { change, nextProbeAt: subscription.health.nextProbeAt };
    });
  }

  /**
   * While the subscription's breaker is open, every scheduled attempt waits for the next probe
   * (the time returned), but the one that takes the probe when its time has come (`probe`: send
   * it as the probe). Null: the breaker is closed, send it.
   */
  private async heldByBreaker(claim: DeliveryClaim): Promise<Date | 'probe' | null> {
    const now = this.clock.now();
    const held = heldUntil(claim.subscription, now);
    if (held !== 'probe') return held;
    // If this probe never reports (a killed worker), another may probe once its lease is over.
    const probe = await this.deliveries.takeProbe(claim.subscription.id, now, new Date(now.getTime() + this.settings.attemptLockMs));
    if (probe.probe) return 'probe';
    return probe.until !== null && probe.until > now ? probe.until : null;
  }

  /** The breaker closed: everything the subscription's deliveries were waiting for goes now (at its rate limit, if any). */
  private async releaseHeld(subscriptionId: string, now: Date): Promise<void> {
    const jobs = await this.deliveries.releaseHeld(subscriptionId, now);
    // If the queue fails here the deliveries are due and unleased: the sweeper enqueues them.
    for (let i = 0; i < jobs.length; i += 1000) await this.queue.enqueue(jobs.slice(i, i + 1000));
  }

  /**
   * When the receiver's pace puts this attempt off: the time, and whether it is a rate slot taken
   * for it. A slot already taken for it (it was put off before) is kept, not queued for again; a
   * job that comes back a moment early waits for it again. Manual attempts are paced too: a limit
   * the customer set, or a pause the receiver asked for, holds for every attempt to that receiver.
   */
  private async paced(claim: DeliveryClaim): Promise<{ at: Date; slotTaken: boolean } | null> {
    const now = this.clock.now();
    const { ratePerSecond, notBefore, slotAt } = claim.pace;
    const late = slotAt !== null && ratePerSecond !== null && now.getTime() - slotAt.getTime() >= slotLateness(ratePerSecond);
    if (slotAt && !late) return slotAt <= now ? null : { at: slotAt, slotTaken: true };
    if (ratePerSecond) {
      const slot = await this.deliveries.takeRateSlot(claim.subscription.id, ratePerSecond, now);
      return slot <= now ? null : { at: slot, slotTaken: true };
    }
    return notBefore && notBefore > now ? { at: notBefore, slotTaken: false } : null;
  }

  /**
   * A scheduled attempt goes by the subscription as it is now (docs/webhooks.md): turned off or
   * deleted, or no longer listing the event's kind, it is sent nothing more; a changed URL is
   * used. One the customer asked for is sent unless the subscription was deleted since.
   */
  private wanted(claim: DeliveryClaim): boolean {
    if (claim.manual) return !claim.subscription.deleted;
    // The relay never makes a delivery of a subscription's own health event, so a scheduled one
    // is never about its subscription: the rest of the rule is what may have changed since.
    return wantsEvent(claim.subscription, { type: claim.eventType });
  }
}
