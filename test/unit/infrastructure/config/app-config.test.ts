import { loadConfig } from '../../../../src/infrastructure/config/app-config';
import { ConfigError } from '../../../../src/infrastructure/config/config-error';
import { DEFAULT_CLUSTER_SHARDS } from '../../../../src/infrastructure/config/webhook-config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const { webhooks, ...config } = loadConfig({});
    expect(webhooks).toEqual({
      retrySchedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
      allowPrivateTargets: false,
      timeoutMs: 10000,
      concurrency: 500,
      attemptsPerJob: 4,
      dnsServers: undefined,
      dnsTimeoutMs: 2000,
      retentionDays: 30,
      sessionRetentionDays: null,
      subscriptionsPerTenant: 100,
      manualPendingPerTenant: 10000,
      tenantConcurrency: 100,
      endpointConcurrency: 50,
      attemptLockMs: 30000,
      health: { breakerFailures: 10, disableAfterMs: 5 * 86_400_000, probeGapsMs: [5000, 300000, 1800000, 7200000, 18000000, 36000000, 50400000, 72000000, 86400000] },
      sweepIntervalMs: 5000,
      relayPollMs: 1000,
      relayLanes: 1,
      queuePrefix: '{lp}',
      queueShards: 1,
    });
    expect(config).toEqual({
      nodeEnv: 'development',
      host: '0.0.0.0',
      port: 3000,
      databaseUrl: undefined,
      databasePoolMax: 10,
      databaseStatementTimeoutMs: 10000,
      redisUrl: undefined,
      redisClusterNodes: undefined,
      logLevel: 'info',
      docsEnabled: true,
      dataDir: '.data',
      shutdownGraceMs: 15000,
      migrateOnStart: true,
      serviceRole: 'all',
      secretsEncryptionKey: undefined,
      rateLimit: { max: 100, windowSeconds: 10, authFailuresMax: 100, storeTimeoutMs: 250 },
      eventFeed: { waitsPerTenant: 10, waitsPerProcess: 1000 },
      trustProxy: false,
      corsOrigins: [],
      benchBaselines: false,
      metrics: { enabled: true, host: '127.0.0.1', port: 9464 },
    });
  });

  it('reads the webhook settings and the encryption key, and requires the key in production', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    const config = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '100ms, 2s,1m', SECRETS_ENCRYPTION_KEY: key, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVICE_ROLE: 'worker' });
    expect(config.webhooks.retrySchedule).toEqual([100, 2000, 60000]);
    expect(config.webhooks.allowPrivateTargets).toBe(true);
    expect(config.serviceRole).toBe('worker');
    expect(config.secretsEncryptionKey?.equals(Buffer.alloc(32, 1))).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
    // The bench's baselines answer without a key: refused in production, allowed elsewhere.
    expect(() => loadConfig({ NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: key, BENCH_BASELINES: 'true' })).toThrow(/BENCH_BASELINES is for `npm run bench` only/);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: key, BENCH_BASELINES: 'false' }).benchBaselines).toBe(false);
    expect(loadConfig({ BENCH_BASELINES: 'true' }).benchBaselines).toBe(true);
    expect(() => loadConfig({ SECRETS_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/SECRETS_ENCRYPTION_KEY must be base64 of exactly 32 bytes \(got "…"\)/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_ATTEMPTS_PER_JOB: '0' })).toThrow(/WEBHOOK_ATTEMPTS_PER_JOB/);
    expect(() => loadConfig({ WEBHOOK_MANUAL_PENDING_MAX: '0' })).toThrow(/WEBHOOK_MANUAL_PENDING_MAX must be an integer from 1 to 1000000/);
    expect(loadConfig({ WEBHOOK_MANUAL_PENDING_MAX: '25' }).webhooks.manualPendingPerTenant).toBe(25);
    expect(() => loadConfig({ WEBHOOK_RELAY_LANES: '9' })).toThrow(/WEBHOOK_RELAY_LANES must be an integer from 1 to 8/);
    expect(loadConfig({ WEBHOOK_RELAY_LANES: '2' }).webhooks.relayLanes).toBe(2);
    // The fairness caps follow WEBHOOK_CONCURRENCY: a fifth and a tenth, at least 10 and 5 (or all of a small worker).
    for (const [slots, tenant, endpoint] of [[500, 100, 50], [1000, 200, 100], [50, 10, 5], [10, 10, 5], [3, 3, 3]]) {
      expect(loadConfig({ WEBHOOK_CONCURRENCY: String(slots) }).webhooks).toMatchObject({ concurrency: slots, tenantConcurrency: tenant, endpointConcurrency: endpoint });
    }
    expect(loadConfig({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_STORE_TIMEOUT_MS: '1000', TRUST_PROXY: '1', CORS_ORIGINS: 'https://a.example, http://b.example:8080' })).toMatchObject({
      rateLimit: { max: 5, windowSeconds: 60, authFailuresMax: 100, storeTimeoutMs: 1000 },
      trustProxy: 1,
      corsOrigins: ['https://a.example', 'http://b.example:8080'],
    });
    expect(() => loadConfig({ RATE_LIMIT_MAX: '0', CORS_ORIGINS: '*' })).toThrow(/RATE_LIMIT_MAX .*CORS_ORIGINS/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64'),
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      REDIS_URL: 'redis://cache:6379',
      LOG_LEVEL: 'debug',
      DOCS_ENABLED: 'false',
      MIGRATE_ON_START: 'false',
    });
    expect(config).toMatchObject({ migrateOnStart: false, nodeEnv: 'production', port: 8080, databaseUrl: 'postgres://u:p@db:5432/app', redisUrl: 'redis://cache:6379', logLevel: 'debug', docsEnabled: false });
  });

  it('names every bad variable, and never prints a connection string whole', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://root:hunter2@db/app', DOCS_ENABLED: 'yes' });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.split(' ')[0])).toEqual(['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'DOCS_ENABLED']);
    expect(error!.message).not.toContain('hunter2');
  });

  it('refuses TRUST_PROXY=true and says why; takes a hop count or proxy addresses and CIDRs', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY must be .*never true, which would let any client choose its address through X-Forwarded-For \(got "true"\)/);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.10, 2001:db8::/32, loopback' }).trustProxy).toBe('10.0.0.0/8,192.0.2.10,2001:db8::/32,loopback');
    for (const bad of ['11', 'yes', '10.0.0.0/33', '2001:db8::/129', 'proxy.internal', '10.0.0.1/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads a Redis Cluster\'s nodes, spreads the delivery queues over it by default, and refuses what would put them on one shard', () => {
    const cluster = loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000, redis-b:7001,[::1]:7002' });
    expect(cluster.redisClusterNodes).toEqual([{ host: '127.0.0.1', port: 7000 }, { host: 'redis-b', port: 7001 }, { host: '::1', port: 7002 }]);
    expect(cluster.webhooks).toMatchObject({ queuePrefix: 'lp', queueShards: DEFAULT_CLUSTER_SHARDS });
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_SHARDS: '3' }).webhooks.queueShards).toBe(3);
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map((p) => p.split(' ')[0]);
      }
    };
    expect(problems({ REDIS_CLUSTER_NODES: '127.0.0.1' })).toEqual(['REDIS_CLUSTER_NODES']);
    expect(problems({ REDIS_CLUSTER_NODES: '127.0.0.1:70000' })).toEqual(['REDIS_CLUSTER_NODES']);
    expect(problems({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual(['REDIS_URL']);
    expect(problems({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: '{lp}' })).toEqual(['QUEUE_PREFIX']);
    expect(problems({ QUEUE_SHARDS: '0' })).toEqual(['QUEUE_SHARDS']);
  });

  it("takes a cluster's username, password and TLS in URL entries, the same for every node, and never prints the password (decisions.md 180)", () => {
    const nodes = loadConfig({ REDIS_CLUSTER_NODES: 'rediss://lp:p%40ss@127.0.0.1:7000,rediss://lp:p%40ss@[::1]:7001' }).redisClusterNodes;
    expect(nodes).toEqual([
      { host: '127.0.0.1', port: 7000, username: 'lp', password: 'p@ss', tls: true },
      { host: '::1', port: 7001, username: 'lp', password: 'p@ss', tls: true },
    ]);
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis://:secret@10.0.0.1:7000' }).redisClusterNodes).toEqual([{ host: '10.0.0.1', port: 7000, password: 'secret' }]);
    for (const bad of ['redis://lp:a@h:7000,redis://lp:b@h:7001', 'rediss://lp:a@h:7000,redis://lp:a@h:7001', 'redis://lp:a@h:7000,h:7001', 'redis://lp:a@h', 'redis://lp:a@h:7000/2', 'http://h:7000']) {
      let message = '';
      try {
        loadConfig({ REDIS_CLUSTER_NODES: bad });
      } catch (error) {
        message = (error as Error).message;
      }
      expect({ bad, refused: message.includes('REDIS_CLUSTER_NODES'), secret: /lp:a@|lp:b@/.test(message) }).toEqual({ bad, refused: true, secret: false });
    }
  });

  it('bounds the statement timeout at 30 s', () => {
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '30000' }).databaseStatementTimeoutMs).toBe(30000);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '30001' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS must be an integer from 100 to 30000 \(got "30001"\)/);
  });
});
