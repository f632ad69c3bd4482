import { ConfigError, loadConfig } from '../../../src/infrastructure/config/app-config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const { webhooks, ...config } = loadConfig({});
    expect(webhooks).toEqual({
      retrySchedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
      allowPrivateTargets: false,
      timeoutMs: 10000,
      concurrency: 50,
      attemptLockMs: 30000,
      sweepIntervalMs: 5000,
      relayPollMs: 1000,
      queuePrefix: '{lp}',
    });
    expect(config).toEqual({
      nodeEnv: 'development',
      host: '0.0.0.0',
      port: 3000,
      databaseUrl: undefined,
      databasePoolMax: 10,
      redisUrl: undefined,
      logLevel: 'info',
      docsEnabled: true,
      dataDir: '.data',
      shutdownGraceMs: 10000,
      migrateOnStart: true,
      serviceRole: 'all',
      secretsEncryptionKey: undefined,
      rateLimit: { max: 100, windowSeconds: 10, authFailuresMax: 20 },
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
    expect(() => loadConfig({ SECRETS_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/SECRETS_ENCRYPTION_KEY must be base64 of exactly 32 bytes \(got "…"\)/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(loadConfig({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60', TRUST_PROXY: '1', CORS_ORIGINS: 'https://a.example, http://b.example:8080' })).toMatchObject({
      rateLimit: { max: 5, windowSeconds: 60, authFailuresMax: 20 },
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
});
