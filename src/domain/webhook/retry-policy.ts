import { InvalidValueError } from '../shared/domain-error';

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

/** The default schedule: ten attempts over about three days (decisions.md, Webhooks). */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses one duration in the schedule's units (`8s`, `5d`); null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(text);
  return match ? Number(match[1]) * UNITS[match[2]] : null;
}

/** Parses `5s,5m,30m,2h`: the delays before attempts 2, 3, 4… */
export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new InvalidValueError('WEBHOOK_RETRY_SCHEDULE', `"${part}" is not a duration like 5s, 5m or 2h`);
    return Number(match[1]) * UNITS[match[2]];
  });
  if (delays.length === 0 || delays.length > 50) throw new InvalidValueError('WEBHOOK_RETRY_SCHEDULE', 'must list 1 to 50 delays');
  return delays;
}

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

/**
 * Retry-After as a wait in ms from `now` (RFC 9110: delta-seconds or an HTTP-date); null when
 * absent or not one of those.
 */
export function parseRetryAfter(value: string | undefined | null, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
