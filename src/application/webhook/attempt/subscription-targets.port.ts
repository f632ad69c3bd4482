import { DeliveryState } from '../../../domain/webhook/attempt-decision';
import { PreviousSigningSecret } from '../../../domain/webhook/signing-secrets';

/** Where a subscription's attempts go and what signs them. */
export interface SubscriptionTarget {
  url: string;
  signingSecret: string;
  /** Rotated-out secrets, newest first; those not yet expired sign beside the current one. */
  previousSecrets: PreviousSigningSecret[];
}

/** A subscription's delivery state as it is now, for deciding a first attempt afresh. */
export interface SubscriptionNow extends DeliveryState {
  /** No failure since its last success, and not turned off. */
  healthy: boolean;
  /** Its target's version now (see SubscriptionTargets.target). */
  version: string;
}

/**
 * Subscriptions as first attempts sent without a claim need them (DirectFirstAttempt): targets
 * kept by the worker while they are what was read, so that a drain reads each subscription's
 * secrets once, not once an attempt; and the delivery state read afresh, once for all the
 * attempts that ask at the same time.
 */
export abstract class SubscriptionTargets {
  /**
   * The subscription's target if it is still the one read (`version`), whether kept or read now;
   * null when it changed since (a PATCH of the URL, a rotation) or the subscription is gone: the
   * attempt is then claimed and read afresh.
   */
  abstract target(subscriptionId: string, version: string): Promise<SubscriptionTarget | null>;
  /** The subscription's delivery state now; null when it is deleted or gone. */
  abstract now(subscriptionId: string): Promise<SubscriptionNow | null>;
}
