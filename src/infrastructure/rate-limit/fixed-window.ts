import { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';

/** The decision for `counted` requests so far in a window, this one included. */
export function decision(counted: number, limit: number, resetMs: number): RateLimitDecision {
  return { allowed: counted <= limit, limit, remaining: Math.max(0, limit - counted), resetMs };
}
