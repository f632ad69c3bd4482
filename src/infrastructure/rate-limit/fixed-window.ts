import { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';

/** The decision for `counted` requests so far in a window, this one included. */
export function decision(counted: number, limit: number, resetMs: number): RateLimitDecision {
  return { allowed: counted <= limit, limit, remaining: Math.max(0, limit - counted), resetMs };
}

/** The fixed window (aligned to the epoch) that `now` falls in: its start and the time left in it. */
export function windowAt(now: number, windowMs: number): { start: number; resetMs: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetMs: start + windowMs - now };
}
