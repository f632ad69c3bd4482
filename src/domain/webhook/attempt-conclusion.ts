import { HealthChange } from './endpoint-health';
import { NextStep, nextStep, outcomeOf, retryAfterBound } from './retry-policy';

// The end of an attempt decided once, as its start is (attempt-decision.ts): from the receiver's
// answer and the subscription's delivery state after the attempt was told to its health, every
// thing that follows. Pure: the use case applies it, and no rule about what follows an answer
// lives anywhere else.

/** What concluding a sent attempt needs to know. */
export interface AttemptEnding {
  /** The attempt's number (1-based). */
  attempt: number;
  /** A delivery the customer asked for: one attempt, its own schedule empty, never held. */
  manual: boolean;
  /** The delivery holds its page's turn on a subscription that orders. */
  ordered: boolean;
  answer: { statusCode: number | null; retryAfterMs?: number | null };
  /** What the attempt changed in the endpoint's health, and whether the breaker is open after it. */
  health: { change: HealthChange; breakerOpen: boolean };
  /** The delays before attempts 2, 3, … (WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[];
}

/** Everything that follows a sent attempt. */
export interface AttemptConclusion {
  /** The delivery's state to record with the attempt. */
  next: NextStep;
  /** The breaker has just opened: what else of the subscription waits for an attempt is held now. */
  holdAll: boolean;
  /** The breaker has just closed: the subscription's held deliveries are released, a page now. */
  release: boolean;
  /** The receiver asked for a pause (Retry-After): no attempt to the subscription before then. */
  pauseUntil: Date | null;
  /** The delivery has ended and held its page's turn: the page's next delivery gets it. */
  passTurn: boolean;
  /** When the next attempt's job is due; null when the delivery ended or is held with its subscription. */
  retryAt: Date | null;
}

/**
 * What follows a sent attempt:
 * 1. The retry policy's next step (nextStep); a manual delivery is one attempt.
 * 2. A scheduled delivery to be tried again while the breaker is open is held with its
 *    subscription, schedule untouched, and never given up for it (heldAfterAttempt).
 * 3. The breaker's change holds or releases the rest; a Retry-After pauses every attempt to the
 *    subscription, not only this delivery's next.
 * 4. An ended delivery passes its page's turn; a pending one not held gets its next job.
 */
export function concludeAttempt(e: AttemptEnding, now: Date, random: number): AttemptConclusion {
  const outcome = outcomeOf(e.answer.statusCode, e.answer.retryAfterMs);
  let next = nextStep(e.attempt, outcome, e.manual ? [] : [...e.schedule], now, random);
  const reason = next.status === 'failed' ? next.reason : undefined;
  if (heldAfterAttempt({ manual: e.manual, breakerOpen: e.health.breakerOpen, next: next.status, reason })) next = { status: 'pending', nextAttemptAt: null };
  const pause = retryAfterBound(e.answer.retryAfterMs);
  return {
    next,
    holdAll: e.health.change === 'breaker-opened',
    release: e.health.change === 'recovered',
    pauseUntil: pause > 0 ? new Date(now.getTime() + pause) : null,
    passTurn: e.ordered && next.status !== 'pending',
    retryAt: next.status === 'pending' ? next.nextAttemptAt : null,
  };
}

/**
 * After an attempt was sent and recorded in the endpoint's health: a scheduled delivery that is
 * to be tried again while the breaker is open is held with the rest (its schedule untouched, and
 * never given up for it: nothing is lost while the receiver is down).
 */
export function heldAfterAttempt(input: { manual: boolean; breakerOpen: boolean; next: 'pending' | 'delivered' | 'failed'; reason?: string }): boolean {
  if (input.manual || !input.breakerOpen) return false;
  return input.next === 'pending' || (input.next === 'failed' && input.reason === 'schedule-exhausted');
}
