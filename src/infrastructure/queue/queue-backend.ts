import type { Logger } from '../../application/shared/logger.port';
import { answers } from '../net/tcp-probe';
import type { RedisNode, RedisTarget } from '../redis/redis-connection';

export const LOCAL_REDIS = { host: '127.0.0.1', port: 6379 };

/** Where BullMQ keeps its jobs: Redis (one server or a cluster) when there is one, else PostgreSQL (BullMQ 6 backend). */
export type QueueBackend = RedisTarget | { kind: 'postgres'; url: string };

/** The Redis of a backend, if it has one (the rate limits and the key cache live there too). */
export function redisOf(backend: QueueBackend): RedisTarget | undefined {
  return backend.kind === 'postgres' ? undefined : backend;
}

/** REDIS_CLUSTER_NODES; else REDIS_URL; else the local Redis if it answers on 127.0.0.1:6379; else the database. */
export async function chooseQueueBackend(
  redis: { redisUrl?: string; redisClusterNodes?: RedisNode[] },
  databaseUrl: string,
  logger: Logger,
  local: { host: string; port: number } = LOCAL_REDIS,
): Promise<QueueBackend> {
  if (redis.redisClusterNodes && redis.redisClusterNodes.length > 0) return { kind: 'redis-cluster', nodes: redis.redisClusterNodes };
  if (redis.redisUrl) return { kind: 'redis', url: redis.redisUrl };
  if (await answers(local.host, local.port)) {
    logger.info({ redis: `${local.host}:${local.port}` }, 'REDIS_URL not set: using the local Redis');
    return { kind: 'redis', url: `redis://${local.host}:${local.port}` };
  }
  logger.info('REDIS_URL not set and no Redis on 127.0.0.1:6379: queues use PostgreSQL');
  return { kind: 'postgres', url: databaseUrl };
}
