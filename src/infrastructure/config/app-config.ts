import { HealthPolicy } from '../../domain/webhook/endpoint-health';
import type { RedisNode } from '../redis/redis-connection';
import { describeNodes, parseClusterNodes } from '../redis/cluster-nodes';
import { isIP } from 'node:net';
import { DEFAULT_RETRY_SCHEDULE, parseDuration, parseRetrySchedule } from '../../domain/webhook/retry-texts';

// Configuration comes from the environment only, checked once at start: a bad value stops the
// process with a message naming the variable (README, Configuration).

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const SERVICE_ROLES = ['all', 'api', 'worker'] as const;

export interface AppConfig {
  nodeEnv: (typeof NODE_ENVS)[number];
  host: string;
  port: number;
  /** Absent: the local PostgreSQL if it answers on 127.0.0.1:5432, else an embedded one. */
  databaseUrl?: string;
  databasePoolMax: number;
  /** Bound on every statement of the API's and worker's connections, below the Idempotency-Key hold. */
  databaseStatementTimeoutMs: number;
  /** Absent: the local Redis if it answers (used from the webhooks issue on). */
  redisUrl?: string;
  /** REDIS_CLUSTER_NODES: some nodes of a Redis Cluster (the client finds the rest); set, it is used instead of REDIS_URL. */
  redisClusterNodes?: RedisNode[];
  logLevel: LogLevel;
  docsEnabled: boolean;
  /** Where development state lives (embedded PostgreSQL data, generated keys). */
  dataDir: string;
  shutdownGraceMs: number;
  /** Whether the API, worker and CLI apply pending migrations when they open the database. */
  migrateOnStart: boolean;
  /** `all` runs the API and the webhook worker in one process; `api` or `worker` runs one. */
  serviceRole: (typeof SERVICE_ROLES)[number];
  /** base64 of 32 bytes; absent in development means "generated once under dataDir". */
  secretsEncryptionKey?: Buffer;
  webhooks: {
    retrySchedule: number[];
    allowPrivateTargets: boolean;
    timeoutMs: number;
    concurrency: number;
    /** Due attempts of one tenant to one endpoint that one queue job carries at most. */
    attemptsPerJob: number;
    /** Name servers for delivery targets (the system's when absent), and one query's timeout. */
    dnsServers?: string[];
    dnsTimeoutMs: number;
    /** Days events, their deliveries and attempts are kept (whole days, docs/scaling.md). */
    retentionDays: number;
    /** Days raw page sessions are kept; null keeps them (stats and UTM values are kept apart). */
    sessionRetentionDays: number | null;
    /** Live subscriptions a tenant may have. */
    subscriptionsPerTenant: number;
    /** Manual deliveries (redeliver, recover, test) of a tenant that may wait at once. */
    manualPendingPerTenant: number;
    /** Attempts in flight per tenant, and per endpoint (URL origin), in one worker process. */
    tenantConcurrency: number;
    endpointConcurrency: number;
    /** How long an attempt's claim lasts before another worker may take it (crash recovery). */
    attemptLockMs: number;
    /** WEBHOOK_BREAKER_FAILURES and WEBHOOK_DISABLE_AFTER (docs/webhooks.md, Endpoint health). */
    health: HealthPolicy;
    sweepIntervalMs: number;
    relayPollMs: number;
    /** Relay rounds at once during a backlog (decisions.md 149). */
    relayLanes: number;
    /** Prefix of every queue key; the braces are a Redis Cluster hash tag (one slot per queue). */
    queuePrefix: string;
    /**
     * QUEUE_SHARDS: how many delivery queues the attempts are spread over, by tenant; every worker
     * takes from all of them. 1 (one queue) on a single Redis; on a cluster, each queue has a hash
     * tag of its own, so the queues, and the work, are spread over its masters (docs/scaling.md).
     */
    queueShards: number;
  };
  rateLimit: {
    /** Requests per API key per window. */
    max: number;
    windowSeconds: number;
    /** Failed authentications per client address (IPv4, IPv6 /64) per window before it gets 429. */
    authFailuresMax: number;
    /** Longest a Redis command of the limiter and key cache may take before the request goes on without it (fail open). */
    storeTimeoutMs: number;
  };
  /** Long polls of the event feed (GET /v0/events?order=asc&wait=…) parked at once. */
  eventFeed: {
    waitsPerTenant: number;
    waitsPerProcess: number;
  };
  /**
   * Express `trust proxy`: false, a hop count, or a list of proxy addresses/CIDRs (for the client
   * IP behind a proxy). Never `true`: that believes whatever X-Forwarded-For a client sends.
   */
  trustProxy: false | number | string;
  /** Origins allowed by CORS; empty means CORS is off. */
  corsOrigins: string[];
  /** Mounts the /bench baseline routes (`npm run bench` only). */
  benchBaselines: boolean;
  /** With benchBaselines: where baseline (c), the bare node:http floor, listens (none when unset). */
  benchFloorPort?: number;
  /** Prometheus /metrics on a port of its own (off the public API port). */
  metrics: { enabled: boolean; host: string; port: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

type Env = Record<string, string | undefined>;

/**
 * A worker's attempt slots: WEBHOOK_CONCURRENCY, and above it a reserve of a fifth more, one slot
 * each for tenants with nothing in flight (InFlightLimits), so that the queue jobs a worker takes
 * and the connections it may open cover both.
 */
export function attemptSlots(webhooks: AppConfig['webhooks']): { perWorker: number; reserve: number; total: number } {
  const reserve = Math.max(1, Math.floor(webhooks.concurrency / 5));
  return { perWorker: webhooks.concurrency, reserve, total: webhooks.concurrency + reserve };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, expected: string): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = parse(raw.trim());
    if (value === undefined) problems.push(`${name} must be ${expected} (got "${redact(name, raw)}")`);
    return value ?? fallback;
  };

  const config: AppConfig = {
    nodeEnv: read('NODE_ENV', 'development', oneOf(NODE_ENVS), NODE_ENVS.join(' | ')),
    host: read('HOST', '0.0.0.0', (raw) => (/^[\w.:-]+$/.test(raw) ? raw : undefined), 'a host name or address'),
    port: read('PORT', 3000, integerIn(0, 65535), 'an integer from 0 to 65535'),
    databaseUrl: read('DATABASE_URL', undefined, urlWith(['postgres:', 'postgresql:']), 'a postgres:// URL'),
    databasePoolMax: read('DATABASE_POOL_MAX', 10, integerIn(1, 200), 'an integer from 1 to 200'),
    databaseStatementTimeoutMs: read(
      'DATABASE_STATEMENT_TIMEOUT_MS',
      10_000,
      integerIn(100, 30_000),
      'an integer from 100 to 30000',
    ),
    redisUrl: read('REDIS_URL', undefined, urlWith(['redis:', 'rediss:']), 'a redis:// or rediss:// URL'),
    redisClusterNodes: read<RedisNode[] | undefined>(
      'REDIS_CLUSTER_NODES',
      undefined,
      parseClusterNodes,
      'a comma-separated list of host:port or redis[s]://[user:password@]host:port, every entry with the same credentials and TLS',
    ),
    logLevel: read('LOG_LEVEL', 'info', oneOf(LOG_LEVELS), LOG_LEVELS.join(' | ')),
    docsEnabled: read('DOCS_ENABLED', true, boolean, 'true or false'),
    dataDir: read('DATA_DIR', '.data', (raw) => raw, 'a path'),
    // Above WEBHOOK_TIMEOUT_MS (10 s): an attempt in flight at a deploy finishes instead of being
    // cut and sent again after its lease.
    shutdownGraceMs: read('SHUTDOWN_GRACE_MS', 15000, integerIn(0, 600000), 'an integer from 0 to 600000'),
    migrateOnStart: read('MIGRATE_ON_START', true, boolean, 'true or false'),
    serviceRole: read('SERVICE_ROLE', 'all', oneOf(SERVICE_ROLES), SERVICE_ROLES.join(' | ')),
    secretsEncryptionKey: read('SECRETS_ENCRYPTION_KEY', undefined, key32, 'base64 of exactly 32 bytes'),
    webhooks: {
      retrySchedule: read('WEBHOOK_RETRY_SCHEDULE', parseRetrySchedule(DEFAULT_RETRY_SCHEDULE), schedule, 'comma-separated durations like 5s,5m,2h'),
      allowPrivateTargets: read('WEBHOOK_ALLOW_PRIVATE_TARGETS', false, boolean, 'true or false'),
      timeoutMs: read('WEBHOOK_TIMEOUT_MS', 10000, integerIn(100, 60000), 'an integer from 100 to 60000'),
      concurrency: read('WEBHOOK_CONCURRENCY', 500, integerIn(1, 10_000), 'an integer from 1 to 10000'),
      attemptsPerJob: read('WEBHOOK_ATTEMPTS_PER_JOB', 4, integerIn(1, 100), 'an integer from 1 to 100'),
      dnsServers: read<string[] | undefined>('WEBHOOK_DNS_SERVERS', undefined, nameServers, 'a comma-separated list of IP addresses, each with an optional :port'),
      dnsTimeoutMs: read('WEBHOOK_DNS_TIMEOUT_MS', 2000, integerIn(100, 30000), 'an integer from 100 to 30000'),
      retentionDays: read('WEBHOOK_RETENTION_DAYS', 30, integerIn(1, 3650), 'an integer from 1 to 3650'),
      sessionRetentionDays: read<number | null>('PAGE_SESSION_RETENTION_DAYS', null, integerIn(1, 36500), 'an integer from 1 to 36500'),
      subscriptionsPerTenant: read('WEBHOOK_SUBSCRIPTIONS_MAX', 100, integerIn(1, 10_000), 'an integer from 1 to 10000'),
      manualPendingPerTenant: read('WEBHOOK_MANUAL_PENDING_MAX', 10_000, integerIn(1, 1_000_000), 'an integer from 1 to 1000000'),
      tenantConcurrency: 0,
      endpointConcurrency: 0,
      attemptLockMs: read('WEBHOOK_ATTEMPT_LOCK_MS', 30000, integerIn(1000, 3600000), 'an integer from 1000 to 3600000'),
      health: {
        breakerFailures: read('WEBHOOK_BREAKER_FAILURES', 10, integerIn(1, 1000), 'an integer from 1 to 1000'),
        disableAfterMs: read('WEBHOOK_DISABLE_AFTER', 5 * 86_400_000, durationIn(1000, 365 * 86_400_000), 'a duration like 5d, 12h or 8s, from 1s to 365d'),
        probeGapsMs: [],
      },
      sweepIntervalMs: read('WEBHOOK_SWEEP_INTERVAL_MS', 5000, integerIn(100, 3600000), 'an integer from 100 to 3600000'),
      relayPollMs: read('WEBHOOK_RELAY_POLL_MS', 1000, integerIn(10, 60000), 'an integer from 10 to 60000'),
      relayLanes: read('WEBHOOK_RELAY_LANES', 1, integerIn(1, 8), 'an integer from 1 to 8'),
      queuePrefix: read('QUEUE_PREFIX', env.REDIS_CLUSTER_NODES ? 'lp' : '{lp}', (raw) => (/^[\w{}:.-]{1,40}$/.test(raw) ? raw : undefined), 'up to 40 characters of letters, digits, {}:._-'),
      queueShards: read('QUEUE_SHARDS', env.REDIS_CLUSTER_NODES ? DEFAULT_CLUSTER_SHARDS : 1, integerIn(1, 256), 'an integer from 1 to 256'),
    },
    rateLimit: {
      max: read('RATE_LIMIT_MAX', 100, integerIn(1, 1_000_000), 'an integer from 1 to 1000000'),
      windowSeconds: read('RATE_LIMIT_WINDOW_SECONDS', 10, integerIn(1, 86400), 'an integer from 1 to 86400'),
      authFailuresMax: read('RATE_LIMIT_AUTH_FAILURES_MAX', 100, integerIn(1, 1_000_000), 'an integer from 1 to 1000000'),
      storeTimeoutMs: read('RATE_LIMIT_STORE_TIMEOUT_MS', 250, integerIn(10, 10_000), 'an integer from 10 to 10000'),
    },
    eventFeed: {
      waitsPerTenant: read('EVENT_FEED_WAITS_PER_TENANT', 10, integerIn(1, 1000), 'an integer from 1 to 1000'),
      waitsPerProcess: read('EVENT_FEED_WAITS_PER_PROCESS', 1000, integerIn(1, 100_000), 'an integer from 1 to 100000'),
    },
    trustProxy: read<false | number | string>('TRUST_PROXY', false, trustProxy, TRUST_PROXY_EXPECTED),
    corsOrigins: read<string[]>('CORS_ORIGINS', [], origins, 'a comma-separated list of http(s) origins'),
    benchBaselines: read('BENCH_BASELINES', false, boolean, 'true or false'),
    benchFloorPort: read<number | undefined>('BENCH_FLOOR_PORT', undefined, integerIn(1, 65535), 'an integer from 1 to 65535'),
    metrics: {
      enabled: read('METRICS_ENABLED', true, boolean, 'true or false'),
      host: read('METRICS_HOST', '127.0.0.1', (raw) => (/^[\w.:-]+$/.test(raw) ? raw : undefined), 'a host name or address'),
      port: read('METRICS_PORT', 9464, integerIn(0, 65535), 'an integer from 0 to 65535'),
    },
  };
  // A fifth of the worker's slots per tenant and a tenth per tenant and origin by default (100 and
  // 50 of 500): a tenant whose receivers hang leaves four fifths to everyone else, and one busy
  // healthy receiver still has fifty attempts in flight, about what a drain on this machine keeps
  // busy (docs/webhooks.md, Limits and fairness). A small worker keeps at least 10 and 5 (or all
  // its slots), so that one receiver is never down to a single attempt at a time.
  const slots = config.webhooks.concurrency;
  const tenantDefault = Math.max(Math.min(slots, 10), Math.floor(slots / 5));
  const endpointDefault = Math.max(Math.min(slots, 5), Math.floor(slots / 10));
  config.webhooks.tenantConcurrency = read('WEBHOOK_TENANT_CONCURRENCY', tenantDefault, integerIn(1, 10_000), 'an integer from 1 to 10000');
  config.webhooks.endpointConcurrency = read('WEBHOOK_ENDPOINT_CONCURRENCY', endpointDefault, integerIn(1, 10_000), 'an integer from 1 to 10000');
  // The breaker probes at the retry schedule's gaps (docs/webhooks.md, Endpoint health).
  config.webhooks.health = { ...config.webhooks.health, probeGapsMs: config.webhooks.retrySchedule };
  if (config.nodeEnv === 'production' && !config.secretsEncryptionKey) {
    problems.push('SECRETS_ENCRYPTION_KEY is required when NODE_ENV=production (base64 of 32 bytes)');
  }
  // The bench's baselines answer without the contract's checks (baseline (c) lists any tenant's
  // brands with no key): never in production, whatever else is set.
  if (config.nodeEnv === 'production' && config.benchBaselines) {
    problems.push('BENCH_BASELINES is for `npm run bench` only and is refused when NODE_ENV=production');
  }
  if (config.redisClusterNodes && config.redisUrl) problems.push('REDIS_URL and REDIS_CLUSTER_NODES are both set: set one (a cluster is reached through its nodes)');
  // A hash tag in the prefix would win over each queue's own: every queue on one shard.
  if (config.redisClusterNodes && /[{}]/.test(config.webhooks.queuePrefix)) {
    problems.push('QUEUE_PREFIX must have no braces with REDIS_CLUSTER_NODES: each delivery queue has a hash tag of its own, which a tag in the prefix would override (every queue on one shard)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Delivery queues on a Redis Cluster unless QUEUE_SHARDS says otherwise: a few per master of a 3-to-6-master cluster. */
export const DEFAULT_CLUSTER_SHARDS = 12;

function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string): T | undefined => (values.includes(raw as T) ? (raw as T) : undefined);
}

function integerIn(min: number, max: number) {
  return (raw: string): number | undefined => {
    if (!/^\d+$/.test(raw)) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  };
}

function key32(raw: string): Buffer | undefined {
  const key = Buffer.from(raw, 'base64');
  return key.length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? key : undefined;
}

function durationIn(min: number, max: number): (raw: string) => number | undefined {
  return (raw) => {
    const ms = parseDuration(raw);
    return ms !== null && ms >= min && ms <= max ? ms : undefined;
  };
}

function schedule(raw: string): number[] | undefined {
  try {
    return parseRetrySchedule(raw);
  } catch {
    return undefined;
  }
}

const TRUST_PROXY_EXPECTED =
  'false, the number of proxies in front of the API (1 to 10), or a comma-separated list of their addresses or CIDRs ' +
  '(or loopback, linklocal, uniquelocal); never true, which would let any client choose its address through X-Forwarded-For';
const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(raw: string): false | number | string | undefined {
  if (raw === 'false' || raw === '0') return false;
  if (/^\d{1,2}$/.test(raw)) return Number(raw) <= 10 ? Number(raw) : undefined;
  const entries = raw.split(',').map((entry) => entry.trim());
  return entries.every((entry) => PROXY_PRESETS.includes(entry) || isAddressOrCidr(entry)) ? entries.join(',') : undefined;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function nameServers(raw: string): string[] | undefined {
  const list = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  const valid = (entry: string) => {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
    if (bracketed) return isIP(bracketed[1]) === 6;
    if (isIP(entry) !== 0) return true;
    const [host, port, ...rest] = entry.split(':');
    return rest.length === 0 && isIP(host) === 4 && /^\d{1,5}$/.test(port ?? '');
  };
  return list.length > 0 && list.every(valid) ? list : undefined;
}

function origins(raw: string): string[] | undefined {
  const list = raw.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
  return list.every((o) => /^https?:\/\/[^/\s]+$/.test(o)) ? list : undefined;
}

function boolean(raw: string): boolean | undefined {
  return raw === 'true' ? true : raw === 'false' ? false : undefined;
}

function urlWith(protocols: string[]) {
  return (raw: string): string | undefined => {
    try {
      return protocols.includes(new URL(raw).protocol) ? raw : undefined;
    } catch {
      return undefined;
    }
  };
}

/** Connection strings may hold passwords: an error message shows only their scheme. */
function redact(name: string, raw: string): string {
  if (name.endsWith('_KEY')) return '…';
  if (name === 'REDIS_CLUSTER_NODES') return describeNodes(raw);
  return name.endsWith('_URL') ? `${raw.split(':')[0]}:…` : raw.slice(0, 40);
}
