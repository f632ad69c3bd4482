import { once } from 'node:events';
import { RedisRateLimiter } from '../../src/infrastructure/rate-limit/redis-rate-limiter';

/**
 * The production limiter on a Redis that answers, connected before it is used: tests of what it
 * counts must not meet its fail-open paths (a client still connecting, or a command past 250 ms
 * on a busy machine, answers null by design). Those paths have tests of their own.
 */
export async function connectedLimiter(url: string, prefix: string): Promise<RedisRateLimiter> {
  const limiter = new RedisRateLimiter(url, prefix, { commandTimeoutMs: 10_000 });
  if (limiter.redis.status !== 'ready') await once(limiter.redis, 'ready');
  return limiter;
}
