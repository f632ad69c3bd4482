import { NextStep } from '../../domain/webhook/retry-policy';

/** One attempt of one delivery, taken by a worker, with what it needs to send it. */
export interface DeliveryClaim {
  deliveryId: string;
  attempt: number;
  tenantId: string;
  eventId: string;
  eventType: string;
  /** The exact bytes fixed when the event was written; every attempt sends and signs these. */
  body: string;
  subscription: { id: string; url: string; signingSecret: string; active: boolean };
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  /** Why no answer came (timeout, refused address…), short and free of secrets. */
  error: string | null;
}

export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
  delayMs: number;
}

/** What a queue job carries: ids only. The signing secret never enters the queue. */
export type DeliveryJobData = Pick<DeliveryJob, 'deliveryId' | 'attempt'>;

/** The deliveries table: the source of truth for what is owed to whom. */
export abstract class DeliveryStore {
  /**
   * Takes attempt `attempt` of the delivery for `lockMs`; null when it is not this attempt's
   * turn (already done, taken by a live worker, cancelled). A crashed worker's claim expires.
   */
  abstract claim(deliveryId: string, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null>;
  /** Writes the attempt to the log and the delivery's next state in one transaction. */
  abstract record(claim: DeliveryClaim, result: AttemptResult, next: NextStep, at: Date): Promise<void>;
  /** Ends a delivery whose subscription was deactivated or deleted: nothing is sent. */
  abstract cancel(claim: DeliveryClaim, at: Date): Promise<void>;
  /**
   * Turns the subscription off when no delivery to it has succeeded within `windowMs` before `at`
   * (a receiver that failed for a whole retry schedule). True when it was turned off now.
   */
  abstract disableIfDead(subscriptionId: string, at: Date, windowMs: number): Promise<boolean>;
  /** Deliveries due for an attempt that may have no job (queue data lost, worker killed). */
  abstract findStranded(now: Date, limit: number): Promise<DeliveryJob[]>;
}

/** Turns committed outbox events into deliveries, one per matching active subscription. */
export abstract class OutboxRelayStore {
  /** Claims up to `limit` unpublished events; returns how many, and the deliveries made. */
  abstract fanOut(limit: number, now: Date): Promise<{ events: number; deliveries: DeliveryJob[] }>;
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
  abstract headers(input: { eventId: string; eventType: string; body: string; signingSecret: string; sentAt: Date }): Record<string, string>;
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
