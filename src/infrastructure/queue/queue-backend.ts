import type { Logger } from '../../application/shared/logger.port';
import { answers } from '../net/tcp-probe';

export const LOCAL_REDIS = { host: '127.0.0.1', port: 6379 };

/** Where BullMQ keeps its jobs: Redis when there is one, else PostgreSQL (BullMQ 6 backend). */
export type QueueBackend = { kind: 'redis'; url: string } | { kind: 'postgres'; url: string };

/** REDIS_URL; else the local Redis if it answers on 127.0.0.1:6379; else the database. */
export async function chooseQueueBackend(
  redisUrl: string | undefined,
  databaseUrl: string,
  logger: Logger,
  local: { host: string; port: number } = LOCAL_REDIS,
): Promise<QueueBackend> {
  if (redisUrl) return { kind: 'redis', url: redisUrl };
  if (await answers(local.host, local.port)) {
    logger.info({ redis: `${local.host}:${local.port}` }, 'REDIS_URL not set: using the local Redis');
    return { kind: 'redis', url: `redis://${local.host}:${local.port}` };
  }
  logger.info('REDIS_URL not set and no Redis on 127.0.0.1:6379: queues use PostgreSQL');
  return { kind: 'postgres', url: databaseUrl };
}
