import { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';
import { isCluster, RedisConnection } from '../redis/redis-connection';

/** The decision for `counted` requests so far in a window, this one included. */
export function decision(counted: number, limit: number, resetMs: number, windowStart?: number): RateLimitDecision {
  return { allowed: counted <= limit, limit, remaining: Math.max(0, limit - counted), resetMs, windowStart };
}

/**
 * A refund: ARGV[1] counts taken back, only while the window's key still exists (a refund that
 * comes after its window expired would otherwise leave a key below 0 that never expires).
 */
export const REFUND = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0`;

/**
 * Refunds as one pipeline of the REFUND script, defined on `redis` as `command`. On a cluster a
 * pipeline reaches one node only, and the keys are spread over every node: there each refund is a
 * call of its own, sent together (the client writes those of one node in one go).
 */
export function pipelinedRefunds(redis: RedisConnection, command: string) {
  return async (refunds: [string, number][]): Promise<void> => {
    if (isCluster(redis)) {
      const call = redis as unknown as Record<string, (key: string, count: number) => Promise<unknown>>;
      await Promise.allSettled(refunds.map(([key, count]) => call[command](key, count)));
      return;
    }
    const pipeline = redis.pipeline() as unknown as Record<string, (key: string, count: number) => unknown> & { exec(): Promise<unknown> };
    for (const [key, count] of refunds) pipeline[command](key, count);
    await pipeline.exec();
  };
}

/** The fixed window (aligned to the epoch) that `now` falls in: its start and the time left in it. */
export function windowAt(now: number, windowMs: number): { start: number; resetMs: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetMs: start + windowMs - now };
}
