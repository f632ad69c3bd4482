import { InvalidValueError } from '../shared/domain-error';

// The texts a retry policy is read from: the operator's schedule and a receiver's Retry-After.

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
