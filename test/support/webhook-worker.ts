import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import type { Logger } from '../../src/application/shared/logger.port';
import { startWebhookWorker, WebhookWorker } from '../../src/composition/worker/webhook-worker';
import { openTestOrm } from './database';
import { testLogger } from './silent-logger';

/** Settings that make retries and recovery fast enough for tests. */
export function workerEnv(databaseUrl: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: 'redis://127.0.0.1:6379',
    SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY!,
    // Each test's jobs under their own prefix, so workers of other tests never take them.
    QUEUE_PREFIX: `{test-${randomBytes(4).toString('hex')}}`,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms',
    WEBHOOK_SWEEP_INTERVAL_MS: '200',
    WEBHOOK_RELAY_POLL_MS: '200',
    WEBHOOK_ATTEMPT_LOCK_MS: '2000',
    WEBHOOK_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
    ...overrides,
  };
}

/** The webhook worker in this process, on the given database. */
export async function startTestWorker(
  databaseUrl: string,
  options: { env?: Record<string, string>; logger?: Logger; localRedis?: { host: string; port: number } } = {},
) {
  const config = loadConfig(workerEnv(databaseUrl, options.env));
  const orm: MikroORM = await openTestOrm(databaseUrl);
  const worker: WebhookWorker = await startWebhookWorker({ config, orm, databaseUrl, logger: options.logger ?? testLogger(), localRedis: options.localRedis });
  return {
    worker,
    orm,
    config,
    stop: async () => {
      await worker.stop();
      await orm.close(true);
    },
  };
}
