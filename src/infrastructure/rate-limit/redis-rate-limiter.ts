import { connectRedis, RedisConnection, RedisTarget } from '../redis/redis-connection';
import { RateLimitDecision, RateLimiter } from '../../application/rate-limit/rate-limiter.port';
import { decision, pipelinedRefunds, REFUND, windowAt } from './fixed-window';
import { RefundBatch } from './refund-batch';

// INCR and the window's expiry in one round trip, atomically: the first hit of a window sets it.
const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;

/**
 * Fixed windows aligned to the epoch, one Redis key per (key, window): every API process shares
 * the budget. Commands time out after 250 ms (RATE_LIMIT_STORE_TIMEOUT_MS) and never queue while
 * Redis is away, so a Redis outage costs a request at most that, then the limiter answers null
 * (fail open).
 */
export class RedisRateLimiter extends RateLimiter {
  /** 304s' refunds, sent together a tick (RefundBatch). */
  private readonly refunds: RefundBatch;

  readonly redis: RedisConnection;
  failures = 0;

  constructor(
    target: RedisTarget | string,
    private readonly prefix: string,
    options: { commandTimeoutMs?: number } = {},
  ) {
    super();
    const redis = typeof target === 'string' ? { kind: 'redis' as const, url: target } : target;
    this.redis = connectRedis(redis, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: options.commandTimeoutMs ?? 250 });
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT });
    this.redis.defineCommand('rateLimitRefund', { numberOfKeys: 1, lua: REFUND });
    this.refunds = new RefundBatch(pipelinedRefunds(this.redis, 'rateLimitRefund'));
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision | null> {
    const { redisKey, resetMs, start } = this.window(key, windowMs);
    try {
      const count = Number(await (this.redis as unknown as { rateLimitHit(k: string, ttl: number): Promise<number> }).rateLimitHit(redisKey, resetMs + 1000));
      return decision(count, limit, resetMs, start);
    } catch {
      this.failures++;
      return null;
    }
  }

  refund(key: string, windowStart: number): Promise<void> {
    return this.refunds.add(`${this.prefix}rl:${key}:${windowStart}`);
  }

  async peek(key: string, windowMs: number): Promise<number | null> {
    try {
      return Number((await this.redis.get(this.window(key, windowMs).redisKey)) ?? 0);
    } catch {
      this.failures++;
      return null;
    }
  }

  /** Resolves once connected, or after `timeoutMs` (the limiter fails open until then). */
  ready(timeoutMs = 1000): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.redis.once('ready', done);
    });
  }

  close(): void {
    this.redis.disconnect();
  }

  private window(key: string, windowMs: number): { redisKey: string; resetMs: number; start: number } {
    const { start, resetMs } = windowAt(Date.now(), windowMs);
    return { redisKey: `${this.prefix}rl:${key}:${start}`, resetMs, start };
  }
}
