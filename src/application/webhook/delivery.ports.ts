import { NextStep } from '../../domain/webhook/retry-policy';
import { PreviousSigningSecret } from '../../domain/webhook/webhook-subscription';

/** One attempt of one delivery, taken by a worker, with what it needs to send it. */
export interface DeliveryClaim {
  deliveryId: string;
  attempt: number;
  tenantId: string;
  eventId: string;
  eventType: string;
  /** The exact bytes fixed when the event was written; every attempt sends and signs these. */
  body: string;
  subscription: {
    id: string;
    url: string;
    signingSecret: string;
    /** Rotated-out secrets, newest first; those not yet expired sign beside the current one. */
    previousSecrets: PreviousSigningSecret[];
    /** Active and not deleted. */
    active: boolean;
    deleted: boolean;
    events: string[];
  };
  /** Set for a delivery a customer asked for (redelivery, recovery, test): one attempt, no schedule. */
  manual: { redeliveryOf: string | null } | null;
  /** The subscription's endpoint now (see DeliveryJob.endpoint), for the next attempt's job. */
  endpoint: string;
  /** How fast the receiver takes attempts (docs/webhooks.md, Receivers set the pace). */
  pace: {
    /** The customer's limit on attempts per second to the subscription; null for none. */
    ratePerSecond: number | null;
    /** No attempt to the subscription before this (a receiver's Retry-After, or the next rate slot); null when none. */
    notBefore: Date | null;
    /** The rate slot this delivery's attempt was given when it was put off; null when none. */
    slotAt: Date | null;
  };
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  /** Why no answer came (timeout, refused address…), short and free of secrets: the tenant sees it. */
  error: string | null;
  /** The operator's detail of `error` (which policy class, which DNS failure); logged, never shown to the tenant. */
  detail?: string | null;
  /** A 429 or 503 with Retry-After: how long the receiver asked us to wait (ms), before any bound. */
  retryAfterMs?: number | null;
}

export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
  delayMs: number;
  /** Whose delivery, and where it goes: what the worker's in-flight caps count (fairness). */
  tenantId: string;
  /** The receiver as an opaque key (a hash of the URL's origin): never the URL, which may hold a token. */
  endpoint: string;
  /**
   * A job made again by the sweeper: it gets an id of its own, so that nothing left in the queue
   * under the attempt's usual id (a job that failed, or is stuck) can stop it.
   */
  requeue?: boolean;
}

/** One attempt a job asks for. */
export type DueAttempt = Pick<DeliveryJob, 'deliveryId' | 'attempt'>;

/**
 * What a queue job carries: ids and keys only. The signing secret and the URL never enter the
 * queue. A job carries one or several due attempts of one tenant to one endpoint
 * (docs/decisions.md 72): a backlog costs the queue one job per few attempts.
 * Jobs made before groups existed carry a single `deliveryId` and `attempt` instead.
 */
export interface DeliveryJobData {
  tenantId: string;
  endpoint: string;
  attempts?: DueAttempt[];
  deliveryId?: string;
  attempt?: number;
}

/** The attempts a job asks for, whichever shape it was made in. */
export function attemptsOf(data: DeliveryJobData): DueAttempt[] {
  if (data.attempts) return data.attempts;
  return data.deliveryId !== undefined && data.attempt !== undefined ? [{ deliveryId: data.deliveryId, attempt: data.attempt }] : [];
}

/** The deliveries table: the source of truth for what is owed to whom. */
export abstract class DeliveryStore {
  /**
   * Takes attempt `attempt` of the delivery for `lockMs`; null when it is not this attempt's
   * turn (already done, taken by a live worker, cancelled). A crashed worker's claim expires.
   */
  abstract claim(deliveryId: string, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null>;
  /** Writes the attempt to the log and the delivery's next state in one transaction. */
  abstract record(claim: DeliveryClaim, result: AttemptResult, next: NextStep, at: Date): Promise<void>;
  /** Ends a delivery whose subscription was deactivated or deleted (or a manual one's deleted): nothing is sent. */
  abstract cancel(claim: DeliveryClaim, at: Date): Promise<void>;
  /**
   * Takes the subscription's next rate slot for one attempt (at most `ratePerSecond` a second,
   * across every worker): the slots are 1/rate apart and none is before `now` or the
   * subscription's `notBefore`. Returns the slot's time.
   */
  abstract takeRateSlot(subscriptionId: string, ratePerSecond: number, now: Date): Promise<Date>;
  /**
   * Puts the claimed attempt off until `until`, unsent and not counted, its lease given back;
   * `slotTaken` when `until` is a rate slot taken for it (kept, so it is not queued for again).
   */
  abstract putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void>;
  /** No attempt to the subscription before `until` (its receiver's Retry-After); a later time already set stays. */
  abstract holdSubscription(subscriptionId: string, until: Date): Promise<void>;
  /**
   * Turns the subscription off when no delivery to it has succeeded within `windowMs` before `at`
   * (a receiver that failed for a whole retry schedule). True when it was turned off now.
   */
  abstract disableIfDead(subscriptionId: string, at: Date, windowMs: number): Promise<boolean>;
  /**
   * Deliveries whose attempt should have run at least `graceMs` ago (and whose lease, if any, has
   * run out) and that were not re-enqueued within `graceMs`: their job was lost (queue data
   * lost, a worker killed, a failure inside the attempt). Marks them re-enqueued now, so the
   * next sweep leaves them to the job it makes. Oldest first; empty when none.
   */
  abstract findStranded(now: Date, limit: number, graceMs: number): Promise<DeliveryJob[]>;
}

/** Turns committed outbox events into deliveries, one per matching active subscription. */
export abstract class OutboxRelayStore {
  /**
   * Claims up to `limit` unpublished events, fewer when their deliveries would exceed the round's
   * bound; returns how many, the deliveries made, and whether more events may be waiting.
   */
  abstract fanOut(limit: number, now: Date): Promise<{ events: number; deliveries: DeliveryJob[]; more: boolean }>;
  /**
   * Up to `limit` manual deliveries (DeliveryRequests) not yet handed to the queue, marked handed
   * now: a lost hand-over is then the sweeper's, as for any delivery.
   */
  abstract takeRequested(limit: number, now: Date): Promise<DeliveryJob[]>;
}

/** The job queue that wakes a worker for each attempt (BullMQ). Idempotent per (delivery, attempt). */
export abstract class DeliveryQueue {
  abstract enqueue(jobs: DeliveryJob[]): Promise<void>;
}

export abstract class WebhookSender {
  /** POSTs the body; never throws for the receiver's or the network's faults. */
  abstract send(request: { url: string; body: string; headers: Record<string, string> }): Promise<AttemptResult>;
}

export abstract class WebhookSigner {
  /** The signature and identification headers of one attempt. */
  abstract headers(input: { eventId: string; eventType: string; body: string; signingSecret: string; previousSecrets?: string[]; sentAt: Date }): Record<string, string>;
}

/** Retry schedule and claim length, from configuration. */
export abstract class WebhookSettings {
  abstract readonly retrySchedule: number[];
  abstract readonly attemptLockMs: number;
}

/** Uniform randomness in [0, 1), a port so tests fix the jitter. */
export abstract class Random {
  abstract next(): number;
}
