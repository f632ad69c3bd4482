import { RateLimitDecision, RateLimiter } from '../../application/rate-limit/rate-limiter.port';
import { decision } from './fixed-window';

/** The same fixed windows in this process only: for a service running without Redis. */
export class MemoryRateLimiter extends RateLimiter {
  private readonly windows = new Map<string, number>();
  private sweptAt = 0;

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const { id, resetMs, start } = this.window(key, windowMs);
    const count = (this.windows.get(id) ?? 0) + 1;
    this.windows.set(id, count);
    return decision(count, limit, resetMs, start);
  }

  async refund(key: string, windowStart: number): Promise<void> {
    const id = `${key}:${windowStart}`;
    const count = this.windows.get(id);
    if (count !== undefined) this.windows.set(id, Math.max(0, count - 1));
  }

  async peek(key: string, windowMs: number): Promise<number> {
    return this.windows.get(this.window(key, windowMs).id) ?? 0;
  }

  private window(key: string, windowMs: number): { id: string; resetMs: number; start: number } {
    const now = Date.now();
    const start = Math.floor(now / windowMs) * windowMs;
    // Old windows are dropped once per window, so memory stays bounded by the active keys.
    if (now - this.sweptAt > windowMs) {
      this.sweptAt = now;
      for (const id of this.windows.keys()) if (Number(id.slice(id.lastIndexOf(':') + 1)) < start) this.windows.delete(id);
    }
    return { id: `${key}:${start}`, resetMs: start + windowMs - now, start };
  }
}
