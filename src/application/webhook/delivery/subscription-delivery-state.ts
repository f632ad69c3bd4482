import { Injectable } from '@nestjs/common';
import { breakerOpen, HealthChange } from '../../../domain/webhook/endpoint-health';
import { AttemptOutcome } from '../../../domain/webhook/retry-policy';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { DeliveryClaim } from './delivery-job';
import { WebhookSettings } from './webhook-settings.port';

/** Subscriptions whose last success this worker noted, at most: past it, the oldest are forgotten. */
const NOTED_AT_MOST = 10_000;
/** A healthy endpoint's last success is written at most this often by one worker. */
const NOTE_SUCCESS_EVERY_MS = 1000;

/**
 * The subscription's delivery state (its endpoint's health and breaker, its pace: decisions.md 128)
 * has one model, the aggregate, and one writer, its repository. Every change here loads the
 * subscription under its row lock (workers and the API take turns on it), applies the domain's
 * rule, and saves it with the events that rule recorded, in one unit of work.
 */
@Injectable()
export class SubscriptionDeliveryState {
  /** When this worker last noted each healthy endpoint's success (a drain succeeds thousands of times a second). */
  private readonly noted = new Map<string, number>();

  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly settings: WebhookSettings,
  ) {}

  /**
   * A finished attempt (a manual one too) tells the endpoint's health (endpoint-health.ts). A
   * success to an endpoint that was healthy changes only its last success, written at most once
   * a second. Returns the change (told or not) and whether the breaker is open after it.
   */
  async afterAttempt(claim: DeliveryClaim, outcome: AttemptOutcome, at: Date, probe: boolean): Promise<{ change: HealthChange; breakerOpen: boolean }> {
    const unchanged = { change: null, breakerOpen: false };
    if (outcome.kind === 'delivered' && claim.subscription.healthy && !this.successToNote(claim.subscription.id, at)) return unchanged;
    return this.changed(claim.tenantId, claim.subscription.id, unchanged, (subscription) => {
      const change = subscription.attemptFinished(outcome.kind, at, this.settings.health, probe);
      return { change, breakerOpen: breakerOpen(subscription.health) };
    });
  }

  /** The subscription's next rate slot for one attempt (WebhookSubscription.takeRateSlot); now if it is gone. */
  takeRateSlot(tenantId: string, subscriptionId: string, now: Date): Promise<Date> {
    return this.changed(tenantId, subscriptionId, now, (subscription) => subscription.takeRateSlot(now));
  }

  /** The receiver asked for a pause (Retry-After): no attempt to it before `until`. */
  pauseUntil(tenantId: string, subscriptionId: string, until: Date): Promise<void> {
    return this.changed(tenantId, subscriptionId, undefined, (subscription) => subscription.pauseUntil(until));
  }

  /**
   * Runs `apply` on the live subscription, loaded under its row lock, and saves what it changed;
   * `missing` when it was deleted. `apply` may write other rows in the same unit of work.
   */
  changed<T>(tenantId: string, subscriptionId: string, missing: T, apply: (subscription: WebhookSubscription) => T | Promise<T>): Promise<T> {
    return this.unitOfWork.run(async () => {
      const subscription = await this.subscriptions.findById(tenantId, subscriptionId, { forUpdate: true });
      if (!subscription) return missing;
      const result = await apply(subscription);
      await this.subscriptions.save(subscription);
      return result;
    });
  }

  private successToNote(subscriptionId: string, at: Date): boolean {
    const last = this.noted.get(subscriptionId);
    if (last !== undefined && at.getTime() - last < NOTE_SUCCESS_EVERY_MS) return false;
    this.noted.delete(subscriptionId);
    if (this.noted.size >= NOTED_AT_MOST) this.noted.delete(this.noted.keys().next().value!);
    this.noted.set(subscriptionId, at.getTime());
    return true;
  }
}
