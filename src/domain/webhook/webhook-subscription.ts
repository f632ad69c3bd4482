import type { EventType } from '../events/event-catalogue';
import { AggregateRoot, StateOf, restored } from '../shared/aggregate-root';
import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';
import { movedForward } from '../shared/clock.port';
import { afterFailure, afterSuccess, EndpointHealth, HealthChange, HealthPolicy, NO_ATTEMPT_YET, turnedBackOn } from './endpoint-health';
import { HealthNotices, NOTHING_TOLD, notice } from './health-notices';
import { DeliveryPace, HeldWake, heldWake, NO_PACE, pausedUntil, takeSlot } from './delivery-pace';
import { healthEvent } from './webhook-subscription.events';
import { checkFilter, DeliveryFilter } from './delivery-filter';
import { afterRotation, MAX_SECRET_OVERLAP_SECONDS, PreviousSigningSecret, unexpired } from './signing-secrets';
import { EventToDeliver, wantsEvent } from './subscription-matching';
import { checkEvents, checkRate, checkUrl } from './subscription-rules';
import { checkOrdering } from './delivery-ordering';
import type { DeliveryOrdering } from './subscription-kinds';

export interface NewWebhookSubscription {
  tenantId: string;
  url: string;
  events: string[];
  active?: boolean;
  rateLimitPerSecond?: number | null;
  filter?: DeliveryFilter | null;
  ordering?: DeliveryOrdering;
}

export interface WebhookSubscriptionChanges {
  url?: string;
  events?: string[];
  active?: boolean;
  /** null removes the limit. */
  rateLimitPerSecond?: number | null;
  /** null removes the filter. */
  filter?: DeliveryFilter | null;
  ordering?: DeliveryOrdering;
}

/**
 * A tenant's registration of a callback URL for some event kinds. The signing secret is made at
 * creation and replaced only by a rotation, which keeps the old one valid for an overlap
 * (decisions.md 82); deactivating stops deliveries and reactivating does not replay what was
 * missed.
 */
export class WebhookSubscription extends AggregateRoot<StateOf<WebhookSubscription>> {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly url: string,
    readonly events: readonly EventType[],
    readonly active: boolean,
    readonly signingSecret: string,
    readonly createdAt: Date,
    readonly updatedAt: Date,
    readonly deletedAt: Date | null,
    /** Newest first, none expired at the last rotation. */
    readonly previousSecrets: readonly PreviousSigningSecret[] = [],
    /** Attempts per second the receiver takes at most (across every worker); null for no limit. */
    readonly rateLimitPerSecond: number | null = null,
    /** What its attempts say about the receiver; kept by the worker (endpoint-health.ts). */
    readonly health: EndpointHealth = NO_ATTEMPT_YET,
    /** What the customer was told of that health (health-notices.ts): the events are damped. */
    readonly healthNotices: HealthNotices = NOTHING_TOLD,
    /** The pace of its deliveries: rate slots, Retry-After, held ones' wake-ups (delivery-pace.ts). */
    readonly pace: DeliveryPace = NO_PACE,
    /** Which of its kinds' events it gets, by what they are about (delivery-filter.ts); null: all. */
    readonly filter: DeliveryFilter | null = null,
    /** Whether each page's deliveries go one at a time, in order (delivery-ordering.ts). */
    readonly ordering: DeliveryOrdering = 'none',
  ) {
    super();
  }

  static create(input: NewWebhookSubscription, signingSecret: string, now: Date): WebhookSubscription {
    return new WebhookSubscription(
      newTypeId('whsub', now.getTime()),
      input.tenantId,
      checkUrl(input.url),
      checkEvents(input.events),
      input.active ?? true,
      signingSecret,
      now,
      now,
      null,
      [],
      checkRate(input.rateLimitPerSecond ?? null),
      NO_ATTEMPT_YET,
      NOTHING_TOLD,
      NO_PACE,
      checkFilter(input.filter),
      checkOrdering(input.ordering),
    );
  }

  /** Restores a stored subscription (the repository decrypts the secret first). */
  static restore(state: StateOf<WebhookSubscription>): WebhookSubscription {
    return restored(WebhookSubscription.prototype, state);
  }

  /**
   * Replaces the signing secret; the old one stays valid for `overlapSeconds`, so receivers can
   * switch without refusing a delivery in between. 0 is the answer to a leak: every old secret,
   * those of earlier rotations included, stops signing at once. Expired old secrets are dropped.
   */
  rotateSecret(newSecret: string, overlapSeconds: number, now: Date): void {
    if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_SECRET_OVERLAP_SECONDS) {
      throw new InvalidValueError('expiresInSeconds', `must be an integer from 0 to ${MAX_SECRET_OVERLAP_SECONDS}`);
    }
    const previousSecrets = afterRotation(this.signingSecret, this.previousSecrets, overlapSeconds, now);
    this.change({ previousSecrets, signingSecret: newSecret, updatedAt: movedForward(this.updatedAt, now) });
  }

  update(changes: WebhookSubscriptionChanges, now: Date): void {
    const url = changes.url === undefined ? this.url : checkUrl(changes.url);
    const events = changes.events === undefined ? this.events : checkEvents(changes.events);
    const rate = changes.rateLimitPerSecond === undefined ? this.rateLimitPerSecond : checkRate(changes.rateLimitPerSecond);
    const filter = changes.filter === undefined ? this.filter : checkFilter(changes.filter);
    const ordering = changes.ordering === undefined ? this.ordering : checkOrdering(changes.ordering);
    // Turning it back on forgets whatever made the platform turn it off.
    const reactivated = changes.active === true && !this.active;
    this.change({
      url,
      events,
      rateLimitPerSecond: rate,
      filter,
      ordering,
      active: changes.active ?? this.active,
      health: reactivated ? turnedBackOn(this.health) : this.health,
      previousSecrets: unexpired(this.previousSecrets, now),
      updatedAt: movedForward(this.updatedAt, now),
    });
  }

  /**
   * A finished attempt to its endpoint (a manual one too) told how the receiver is: its health
   * follows the rules of endpoint-health.ts; a 410 or failing for too long turns the subscription
   * off. Records `webhook_subscription.failing`, `.recovered` or `.disabled` when the attempt
   * opened the breaker, closed it or turned it off, damped (health-notices.ts): a `failing` at
   * most once an hour, a `recovered` only after a `failing` was sent. `probe`: the attempt was
   * the open breaker's probe. Returns the change, told or not: the breaker acts on it either way.
   */
  attemptFinished(outcome: 'delivered' | 'failed' | 'gone', at: Date, policy: HealthPolicy, probe = false): HealthChange {
    const { health, change } = outcome === 'delivered' ? afterSuccess(this.health, at) : afterFailure(this.health, at, policy, outcome === 'gone', probe);
    const { send, told } = notice(change, this.healthNotices, at);
    if (change === 'disabled') this.change({ health, healthNotices: told, active: false, updatedAt: movedForward(this.updatedAt, at) });
    else this.change({ health, healthNotices: told });
    if (change && send) this.record(healthEvent(change, this, at));
    return change;
  }

  /** The next rate slot of an attempt (its time); now when the subscription has no rate. */
  takeRateSlot(now: Date): Date {
    if (this.rateLimitPerSecond === null) return now;
    const { slot, pace } = takeSlot(this.pace, this.rateLimitPerSecond, now);
    this.change({ pace });
    return slot;
  }

  /** Its receiver answered with a Retry-After: no attempt to it before `until`. */
  pauseUntil(until: Date): void {
    this.change({ pace: pausedUntil(this.pace, until) });
  }

  /** What the worker's wake-up does now for the deliveries this subscription holds (delivery-pace.ts). */
  heldWake(now: Date): HeldWake {
    return heldWake({ active: this.active, deleted: this.isDeleted(), nextProbeAt: this.health.nextProbeAt, pace: this.pace }, now);
  }

  /** A held delivery went as the breaker's probe: no other until `leaseUntil`, when another may if it never reports. */
  probeWoken(deliveryId: string, leaseUntil: Date): void {
    this.change({ health: { ...this.health, nextProbeAt: leaseUntil }, pace: { ...this.pace, lastProbeId: deliveryId } });
  }

  /** A page of held deliveries went, spread until `spreadUntil`: the next page goes no earlier. */
  pageReleased(spreadUntil: Date): void {
    this.change({ pace: { ...this.pace, nextReleaseAt: spreadUntil } });
  }

  delete(now: Date): void {
    this.change({ deletedAt: this.deletedAt ?? now, active: false, previousSecrets: unexpired(this.previousSecrets, now) });
  }

  isDeleted(): boolean {
    return this.deletedAt !== null;
  }

  /** Whether this event should be delivered here (wantsEvent). */
  wants(event: EventToDeliver): boolean {
    return wantsEvent({ id: this.id, active: this.active, deleted: this.isDeleted(), events: this.events, filter: this.filter }, event);
  }
}

