import type { RedisNode } from '../redis/redis-connection';
import { parseClusterNodes } from '../redis/cluster-nodes';
import type { EnvReader } from './env-reader';
import { urlWith } from './value-parsers';

/** PostgreSQL and Redis: where they are and how the process uses them. */
export interface StorageConfig {
  /** Absent: the local PostgreSQL if it answers on 127.0.0.1:5432, else an embedded one. */
  databaseUrl?: string;
  databasePoolMax: number;
  /** Bound on every statement of the API's and worker's connections, below the Idempotency-Key hold. */
  databaseStatementTimeoutMs: number;
  /** Absent: the local Redis if it answers. */
  redisUrl?: string;
  /** REDIS_CLUSTER_NODES: some nodes of a Redis Cluster (the client finds the rest); set, it is used instead of REDIS_URL. */
  redisClusterNodes?: RedisNode[];
}

export function storageConfig({ read, integer }: EnvReader): StorageConfig {
  return {
    databaseUrl: read('DATABASE_URL', undefined, urlWith(['postgres:', 'postgresql:']), 'a postgres:// URL'),
    databasePoolMax: integer('DATABASE_POOL_MAX', 10, 1, 200),
    databaseStatementTimeoutMs: integer('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 100, 30_000),
    redisUrl: read('REDIS_URL', undefined, urlWith(['redis:', 'rediss:']), 'a redis:// or rediss:// URL'),
    redisClusterNodes: read<RedisNode[] | undefined>(
      'REDIS_CLUSTER_NODES',
      undefined,
      parseClusterNodes,
      'a comma-separated list of host:port or redis[s]://[user:password@]host:port, every entry with the same credentials and TLS',
    ),
  };
}
