import { Injectable } from '@nestjs/common';
import { breakerOpen, HealthChange } from '../../../domain/webhook/endpoint-health';
import { AttemptConclusion } from '../../../domain/webhook/attempt-conclusion';
import { outcomeOf } from '../../../domain/webhook/retry-policy';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { AttemptToSend } from '../attempt/delivery-claim';
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
   * A sent attempt (a manual one too) ends in one unit of work on its subscription: told to the
   * endpoint's health (endpoint-health.ts), then `conclude` decides from the health after it what
   * follows, and its Retry-After pause and, when the breaker has just closed, `release` (a page
   * of held deliveries) are applied under the same lock. A success to an endpoint that was
   * healthy changes only its last success, written at most once a second: otherwise no unit of
   * work at all. Returns the change, the conclusion, and what `release` returned.
   */
  async afterAttempt<R>(
    attempt: AttemptToSend,
    answer: { statusCode: number | null; retryAfterMs?: number | null },
    at: Date,
    probe: boolean,
    conclude: (health: { change: HealthChange; breakerOpen: boolean }) => AttemptConclusion,
    release: (subscription: WebhookSubscription) => Promise<R[]>,
  ): Promise<{ change: HealthChange; conclusion: AttemptConclusion; released: R[] }> {
    const outcome = outcomeOf(answer.statusCode, answer.retryAfterMs);
    const unchanged = { change: null, breakerOpen: false };
    if (outcome.kind === 'delivered' && attempt.subscription.healthy && !this.successToNote(attempt.subscription.id, at)) return { change: null, conclusion: conclude(unchanged), released: [] };
    const told = await this.changed(attempt.tenantId, attempt.subscription.id, null, async (subscription) => {
      const change = subscription.attemptFinished(outcome.kind, at, this.settings.health, probe);
      const conclusion = conclude({ change, breakerOpen: breakerOpen(subscription.health) });
      if (conclusion.pauseUntil) subscription.pauseUntil(conclusion.pauseUntil);
      const released = conclusion.release ? await release(subscription) : [];
      return { change, conclusion, released };
    });
    // Deleted since it was claimed: nothing of it to change, and what follows is decided as for no change.
    return told ?? { change: null, conclusion: conclude(unchanged), released: [] };
  }

  /** The subscription's next rate slot for one attempt (WebhookSubscription.takeRateSlot); now if it is gone. */
  takeRateSlot(tenantId: string, subscriptionId: string, now: Date): Promise<Date> {
    return this.changed(tenantId, subscriptionId, now, (subscription) => subscription.takeRateSlot(now));
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
