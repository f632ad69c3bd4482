/** One counted request in a fixed window (decisions.md, Rate limiting). */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** The start of the window counted in (epoch ms), for a refund of this very count. */
  windowStart?: number;
}

/**
 * Counts requests per key in fixed windows, shared by every API process where the adapter allows
 * (Redis). Returns null when the store cannot be reached: callers let the request through (fail
 * open) rather than fail every request.
 */
export abstract class RateLimiter {
  abstract hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision | null>;
  /** Takes back one request counted in the window that began at `windowStart` (a 304: decisions.md 140). */
  abstract refund(key: string, windowStart: number): Promise<void>;
  /** How many requests `key` has counted in the current window, counting none; null when the store cannot be reached. */
  abstract peek(key: string, windowMs: number): Promise<number | null>;
}
