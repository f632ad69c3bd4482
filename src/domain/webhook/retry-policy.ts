/** How an attempt ended, as the receiver (or the network) answered. */
export type AttemptOutcome = { kind: 'delivered' } | { kind: 'gone' } | { kind: 'failed'; retryAfterMs?: number };

/**
 * The longest wait a receiver's Retry-After is honoured for: the default schedule's longest gap.
 * A receiver asking for more is tried again after a day, and then as it asks again.
 */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export type NextStep =
  | { status: 'delivered' }
  | { status: 'failed'; reason: 'gone' | 'schedule-exhausted' }
  /** `nextAttemptAt` null: held with its subscription (an open breaker), woken by the worker. */
  | { status: 'pending'; nextAttemptAt: Date | null };

/**
 * What follows attempt `attempt` (1-based): done on 2xx, given up on 410 Gone or when the schedule
 * is used up, else another try after the scheduled delay with ±20 % jitter (so receivers that
 * failed together are not all retried in the same second), and no sooner than the receiver's
 * Retry-After (up to MAX_RETRY_AFTER_MS). `random` is in [0, 1).
 */
export function nextStep(attempt: number, outcome: AttemptOutcome, schedule: number[], now: Date, random: number): NextStep {
  if (outcome.kind === 'delivered') return { status: 'delivered' };
  if (outcome.kind === 'gone') return { status: 'failed', reason: 'gone' };
  const delay = schedule[attempt - 1];
  if (delay === undefined) return { status: 'failed', reason: 'schedule-exhausted' };
  const jittered = Math.round(delay * (0.8 + 0.4 * random));
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + Math.max(jittered, retryAfterBound(outcome.retryAfterMs))) };
}

/** A receiver's Retry-After as honoured: within [0, MAX_RETRY_AFTER_MS]; 0 when it gave none. */
export function retryAfterBound(retryAfterMs: number | null | undefined): number {
  return retryAfterMs ? Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS) : 0;
}

/**
 * 2xx is delivered, 410 ends the delivery, anything else (other statuses, no answer) is retried;
 * a 429 or 503 with Retry-After (Standard Webhooks) is retried no sooner than the receiver asked.
 */
export function outcomeOf(statusCode: number | null, retryAfterMs?: number | null): AttemptOutcome {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'delivered' };
  if (statusCode === 410) return { kind: 'gone' };
  if ((statusCode === 429 || statusCode === 503) && retryAfterMs) return { kind: 'failed', retryAfterMs };
  return { kind: 'failed' };
}

