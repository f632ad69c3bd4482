import type { HealthPolicy } from '../../domain/webhook/endpoint-health';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../../domain/webhook/retry-texts';
import type { Env, EnvReader } from './env-reader';
import { durationIn, retrySchedule } from './value-parsers';
import { nameServers } from './network-parsers';

export interface WebhookConfig {
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
  /** Relay rounds at once during a backlog (docs/decisions.md, Webhook relay). */
  relayLanes: number;
  /** Prefix of every queue key; the braces are a Redis Cluster hash tag (one slot per queue). */
  queuePrefix: string;
  /**
   * QUEUE_SHARDS: how many delivery queues the attempts are spread over, by tenant; every worker
   * takes from all of them. 1 (one queue) on a single Redis; on a cluster, each queue has a hash
   * tag of its own, so the queues, and the work, are spread over its masters (docs/scaling.md).
   */
  queueShards: number;
}

/** Delivery queues on a Redis Cluster unless QUEUE_SHARDS says otherwise: a few per master of a 3-to-6-master cluster. */
export const DEFAULT_CLUSTER_SHARDS = 12;

export function webhookConfig(reader: EnvReader, env: Env): WebhookConfig {
  const { read, integer, flag } = reader;
  const schedule = read('WEBHOOK_RETRY_SCHEDULE', parseRetrySchedule(DEFAULT_RETRY_SCHEDULE), retrySchedule, 'comma-separated durations like 5s,5m,2h');
  const concurrency = integer('WEBHOOK_CONCURRENCY', 500, 1, 10_000);
  const cluster = Boolean(env.REDIS_CLUSTER_NODES);
  return {
    retrySchedule: schedule,
    allowPrivateTargets: flag('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10000, 100, 60000),
    concurrency,
    attemptsPerJob: integer('WEBHOOK_ATTEMPTS_PER_JOB', 4, 1, 100),
    dnsServers: read<string[] | undefined>('WEBHOOK_DNS_SERVERS', undefined, nameServers, 'a comma-separated list of IP addresses, each with an optional :port'),
    dnsTimeoutMs: integer('WEBHOOK_DNS_TIMEOUT_MS', 2000, 100, 30000),
    retentionDays: integer('WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    sessionRetentionDays: integer('PAGE_SESSION_RETENTION_DAYS', null, 1, 36500),
    subscriptionsPerTenant: integer('WEBHOOK_SUBSCRIPTIONS_MAX', 100, 1, 10_000),
    manualPendingPerTenant: integer('WEBHOOK_MANUAL_PENDING_MAX', 10_000, 1, 1_000_000),
    ...inFlightLimits(reader, concurrency),
    attemptLockMs: integer('WEBHOOK_ATTEMPT_LOCK_MS', 30000, 1000, 3600000),
    health: {
      breakerFailures: integer('WEBHOOK_BREAKER_FAILURES', 10, 1, 1000),
      disableAfterMs: read('WEBHOOK_DISABLE_AFTER', 5 * 86_400_000, durationIn(1000, 365 * 86_400_000), 'a duration like 5d, 12h or 8s, from 1s to 365d'),
      // The breaker probes at the retry schedule's gaps (docs/webhooks.md, Endpoint health).
      probeGapsMs: schedule,
    },
    sweepIntervalMs: integer('WEBHOOK_SWEEP_INTERVAL_MS', 5000, 100, 3600000),
    relayPollMs: integer('WEBHOOK_RELAY_POLL_MS', 1000, 10, 60000),
    relayLanes: integer('WEBHOOK_RELAY_LANES', 1, 1, 8),
    queuePrefix: read('QUEUE_PREFIX', cluster ? 'lp' : '{lp}', (raw) => (/^[\w{}:.-]{1,40}$/.test(raw) ? raw : undefined), 'up to 40 characters of letters, digits, {}:._-'),
    queueShards: integer('QUEUE_SHARDS', cluster ? DEFAULT_CLUSTER_SHARDS : 1, 1, 256),
  };
}

/**
 * A fifth of the worker's slots per tenant and a tenth per tenant and origin by default (100 and
 * 50 of 500): a tenant whose receivers hang leaves four fifths to everyone else, and one busy
 * healthy receiver still has fifty attempts in flight, about what a drain on this machine keeps
 * busy (docs/webhooks.md, Limits and fairness). A small worker keeps at least 10 and 5 (or all
 * its slots), so that one receiver is never down to a single attempt at a time.
 */
function inFlightLimits({ integer }: EnvReader, slots: number): Pick<WebhookConfig, 'tenantConcurrency' | 'endpointConcurrency'> {
  const tenantDefault = Math.max(Math.min(slots, 10), Math.floor(slots / 5));
  const endpointDefault = Math.max(Math.min(slots, 5), Math.floor(slots / 10));
  return {
    tenantConcurrency: integer('WEBHOOK_TENANT_CONCURRENCY', tenantDefault, 1, 10_000),
    endpointConcurrency: integer('WEBHOOK_ENDPOINT_CONCURRENCY', endpointDefault, 1, 10_000),
  };
}

/**
 * A worker's attempt slots: WEBHOOK_CONCURRENCY, and above it a reserve of a fifth more, one slot
 * each for tenants with nothing in flight (InFlightLimits), so that the queue jobs a worker takes
 * and the connections it may open cover both.
 */
export function attemptSlots(webhooks: WebhookConfig): { perWorker: number; reserve: number; total: number } {
  const reserve = Math.max(1, Math.floor(webhooks.concurrency / 5));
  return { perWorker: webhooks.concurrency, reserve, total: webhooks.concurrency + reserve };
}
