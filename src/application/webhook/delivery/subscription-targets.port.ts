import { PreviousSigningSecret } from '../../../domain/webhook/webhook-subscription';

/** Where a subscription's attempts go and what signs them. */
export interface SubscriptionTarget {
  url: string;
  signingSecret: string;
  /** Rotated-out secrets, newest first; those not yet expired sign beside the current one. */
  previousSecrets: PreviousSigningSecret[];
}

/**
 * Subscriptions' targets for first attempts sent without a claim (DirectFirstAttempt): kept by
 * the worker while they are what the relay read, so that a drain reads each subscription once,
 * not once an attempt.
 */
export abstract class SubscriptionTargets {
  /**
   * The subscription's target if it is still the one the relay read (`version`), whether kept or
   * read now; null when it changed since (a PATCH of the URL, a rotation) or the subscription is
   * gone: the attempt is then claimed and read afresh.
   */
  abstract target(subscriptionId: string, version: string): Promise<SubscriptionTarget | null>;
}
