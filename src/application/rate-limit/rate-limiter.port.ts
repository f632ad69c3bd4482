/** One counted request in a fixed window (decisions.md, Rate limiting). */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/**
 * Counts requests per key in fixed windows, shared by every API process where the adapter allows
 * (Redis). Returns null when the store cannot be reached: callers let the request through (fail
 * open) rather than fail every request.
 */
export abstract class RateLimiter {
  abstract hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision | null>;
}
