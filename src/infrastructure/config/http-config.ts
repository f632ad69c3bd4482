import type { EnvReader } from './env-reader';
import { hostName } from './value-parsers';
import { TRUST_PROXY_EXPECTED, origins, trustProxy } from './network-parsers';

/** The public API's edge: rate limits, the event feed's long polls, proxies, CORS, metrics. */
export interface HttpConfig {
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

export function httpConfig({ read, integer, flag }: EnvReader): HttpConfig {
  return {
    rateLimit: {
      max: integer('RATE_LIMIT_MAX', 100, 1, 1_000_000),
      windowSeconds: integer('RATE_LIMIT_WINDOW_SECONDS', 10, 1, 86400),
      authFailuresMax: integer('RATE_LIMIT_AUTH_FAILURES_MAX', 100, 1, 1_000_000),
      storeTimeoutMs: integer('RATE_LIMIT_STORE_TIMEOUT_MS', 250, 10, 10_000),
    },
    eventFeed: {
      waitsPerTenant: integer('EVENT_FEED_WAITS_PER_TENANT', 10, 1, 1000),
      waitsPerProcess: integer('EVENT_FEED_WAITS_PER_PROCESS', 1000, 1, 100_000),
    },
    trustProxy: read<false | number | string>('TRUST_PROXY', false, trustProxy, TRUST_PROXY_EXPECTED),
    corsOrigins: read<string[]>('CORS_ORIGINS', [], origins, 'a comma-separated list of http(s) origins'),
    benchBaselines: flag('BENCH_BASELINES', false),
    benchFloorPort: integer('BENCH_FLOOR_PORT', undefined, 1, 65535),
    metrics: {
      enabled: flag('METRICS_ENABLED', true),
      host: read('METRICS_HOST', '127.0.0.1', hostName, 'a host name or address'),
      port: integer('METRICS_PORT', 9464, 0, 65535),
    },
  };
}
