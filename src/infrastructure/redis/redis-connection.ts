import IORedis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';

/**
 * A node of a Redis Cluster, as REDIS_CLUSTER_NODES names it (cluster-nodes.ts), with the
 * credentials and TLS of the whole cluster when its entry was a URL.
 */
export interface RedisNode {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** rediss://: every node is reached over TLS. */
  tls?: boolean;
}

/** A Redis to connect to: one server by URL (REDIS_URL), or a Redis Cluster by some of its nodes (REDIS_CLUSTER_NODES). */
export type RedisTarget = { kind: 'redis'; url: string } | { kind: 'redis-cluster'; nodes: RedisNode[] };

/** A connection to either: the same commands, scripts and pipelines (a cluster's per node). */
export type RedisConnection = IORedis | Cluster;

/**
 * A connection to the target with `options` (per node, for a cluster). A cluster's client follows
 * MOVED and ASK itself, and after a failover refreshes its map of slots and sends again what failed
 * meanwhile, within `maxRetriesPerRequest` (none for a connection that fails fast). Errors are
 * reported by whoever uses the connection; an unhandled 'error' event would end the process.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions): RedisConnection {
  // A closed connection waits this long for the server's end before it is destroyed (ioredis's
  // default is 2 s, a timer that outlives a stop: a node already gone never answers).
  const withDefaults: RedisOptions = { disconnectTimeout: 200, ...options };
  const connection =
    target.kind === 'redis'
      ? new IORedis(target.url, withDefaults)
      : new Cluster(
          target.nodes.map(({ host, port }) => ({ host, port })),
          clusterOptions({ ...withDefaults, ...accessOf(target.nodes[0]) }),
        );
  connection.on('error', () => {});
  return connection;
}

/** The credentials and TLS every node of the cluster takes (the first entry's: they all agree). */
function accessOf(node: RedisNode | undefined): RedisOptions {
  const access: RedisOptions = {};
  if (node?.username) access.username = node.username;
  if (node?.password) access.password = node.password;
  if (node?.tls) access.tls = {};
  return access;
}

function clusterOptions(options: RedisOptions): ClusterOptions {
  return {
    redisOptions: options,
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    lazyConnect: options.lazyConnect ?? false,
    // While a master's replica takes over (cluster-node-timeout and the election), its slots answer
    // CLUSTERDOWN or nothing: commands wait this long between tries rather than spin.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    // The map of slots is read again at once after a MOVED, and every five seconds besides.
    slotsRefreshInterval: 5000,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2000),
  };
}

/** The key of a cluster's hash slot: keys of one call that must be in one slot share this tag. */
export function hashTag(value: string): string {
  return `{${value}}`;
}

/** Whether a connection is a cluster's (its pipelines reach one node each). */
export function isCluster(connection: RedisConnection): connection is Cluster {
  return connection instanceof Cluster;
}
