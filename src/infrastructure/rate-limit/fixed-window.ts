import { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';

/** The decision for `counted` requests so far in a window, this one included. */
export function decision(counted: number, limit: number, resetMs: number, windowStart?: number): RateLimitDecision {
  return { allowed: counted <= limit, limit, remaining: Math.max(0, limit - counted), resetMs, windowStart };
}

/**
 * A refund: one count taken back, only while the window's key still exists (a refund that comes
 * after its window expired would otherwise leave a key at -1 that never expires).
 */
export const REFUND = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end
return 0`;

/** The fixed window (aligned to the epoch) that `now` falls in: its start and the time left in it. */
export function windowAt(now: number, windowMs: number): { start: number; resetMs: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetMs: start + windowMs - now };
}
