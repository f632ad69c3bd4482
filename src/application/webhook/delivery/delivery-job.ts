/**
 * The W3C trace context of the request that wrote an event (`traceparent`, `tracestate`), kept
 * with the event: its attempts run in that trace and tell the receiver so. Opaque here.
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate: string | null;
}

/**
 * What the relay read for a delivery's first attempt, so that the attempt needs no claim
 * (docs/webhooks.md, The attempt's path): the event, and the subscription as it was read. The
 * relay decided then that the attempt is to be sent at once (decideAttempt); that read is
 * honoured for DIRECT_WINDOW_MS, after which the attempt is claimed and read afresh like any other.
 * The URL and the secrets are not here: the worker reads them by subscription and keeps them
 * while the subscription's row is the one the relay read (`version`).
 */
export interface DirectFirstAttempt {
  /** When the relay read the subscription (ms since the epoch). */
  readAt: number;
  subscriptionId: string;
  /** The version of the subscription's target (URL and secrets) when read: a change to either moves it. */
  version: string;
  /** No failure since its last success, and not turned off, when read (its successes then change nothing but the last one's time). */
  healthy: boolean;
  eventId: string;
  eventType: string;
  body: string;
  trace: TraceCarrier | null;
  /** The page whose turn it holds (DeliveryTurns); absent when not ordered. */
  orderKey?: string;
  /** Its MAC (DirectAttemptSeal), added as it is enqueued; without one that holds it is claimed instead. */
  seal?: string;
}

/** How long the relay's read of a subscription is honoured for a first attempt sent without a claim. */
export const DIRECT_WINDOW_MS = 2000;

/**
 * How long after the relay's read a first attempt may still start without a claim: half a lease.
 * Such an attempt holds no lease, so the sweeper waits this much longer than a lease before it
 * takes a never-attempted delivery for stranded: every unclaimed attempt still has a whole lease
 * from its start, as a claimed one has (StrandedDeliveries).
 */
export function unclaimedStartBound(attemptLockMs: number): number {
  return attemptLockMs / 2;
}

export interface DeliveryJob {
  deliveryId: string;
  /** The delivery's event: its day of history, so that the claim reads that day only (docs/decisions.md 147). */
  eventId: string;
  attempt: number;
  /** A first attempt the relay made ready to send (see DirectFirstAttempt). */
  direct?: DirectFirstAttempt;
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
  /**
   * Work that waited (held deliveries released, stranded ones swept): the queue hands it out after
   * every fresh job (BullMQ's priorities), so that one tenant's recovering backlog never holds up
   * another tenant's new events, and catches up as the worker has room.
   */
  backlog?: boolean;
}

/** One attempt a job asks for. Jobs made before history was kept by day carry no event id. */
export type DueAttempt = Pick<DeliveryJob, 'deliveryId' | 'attempt' | 'direct'> & { eventId?: string };

/**
 * What a queue job carries: ids and keys, and for a first attempt the relay made ready the event's
 * body and what it read (DirectFirstAttempt). The signing secret and the URL never enter the
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

/** What a log line may say of a job's attempts: their ids, never the body a direct one carries. */
export function attemptIdsOf(data: DeliveryJobData): { deliveryId: string; attempt: number }[] {
  return attemptsOf(data).map(({ deliveryId, attempt }) => ({ deliveryId, attempt }));
}

/** The attempts a job asks for, whichever shape it was made in. */
export function attemptsOf(data: DeliveryJobData): DueAttempt[] {
  if (data.attempts) return data.attempts;
  return data.deliveryId !== undefined && data.attempt !== undefined ? [{ deliveryId: data.deliveryId, attempt: data.attempt }] : [];
}
