import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase } from './bootstrap';
import { createOrmConfig } from './infrastructure/persistence/mikro-orm.config';
import { createHttpApp } from './http-app';
import { startWebhookWorker, WebhookWorker } from './worker-runtime';
import { ConfigError, loadConfig } from './infrastructure/config/app-config';
import { createLogger } from './infrastructure/logging/logger';
import { startMetricsServer } from './infrastructure/metrics/metrics-server';
import { registerOutboxGauges } from './infrastructure/metrics/operational-gauges';
import { PrometheusMetrics } from './infrastructure/metrics/prometheus.metrics';
import { chooseQueueBackend } from './infrastructure/queue/queue-backend';
import { RedisRateLimiter } from './infrastructure/rate-limit/redis-rate-limiter';

// Composition root of the API process: configuration, database (migrated), HTTP, shutdown.
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger);
  const role = config.serviceRole;
  const metrics = new PrometheusMetrics();
  registerOutboxGauges(metrics, database.orm);
  let app: Awaited<ReturnType<typeof createHttpApp>> | undefined;
  let rateLimiter: RedisRateLimiter | undefined;
  if (role !== 'worker') {
    // Rate limits are shared through Redis when there is one; else counted in this process.
    const redis = await chooseQueueBackend(config.redisUrl, database.location.url, logger);
    if (redis.kind === 'redis') {
      rateLimiter = new RedisRateLimiter(redis.url, 'lp:');
      await rateLimiter.ready();
    }
    app = await createHttpApp({ config, orm: database.orm, logger, rateLimiter, metrics });
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
    logger.info(
      { api: `${base}/v0`, docs: config.docsEnabled ? `${base}/docs` : 'disabled', openapi: config.docsEnabled ? `${base}/docs-json` : 'disabled', database: database.location.source },
      `API listening on ${base}/v0${config.docsEnabled ? `, docs at ${base}/docs` : ''}`,
    );
  }
  let worker: WebhookWorker | undefined;
  let workerOrm: MikroORM | undefined;
  if (role !== 'api') {
    // In one process the worker gets a connection pool of its own: a burst of deliveries must
    // never make API requests wait for a connection.
    workerOrm = role === 'all' ? await MikroORM.init(createOrmConfig(database.location.url, config.databasePoolMax, config.databaseStatementTimeoutMs)) : database.orm;
    worker = await startWebhookWorker({ config, orm: workerOrm, databaseUrl: database.location.url, logger, metrics });
  }
  const metricsServer = config.metrics.enabled ? await startMetricsServer(metrics.registry, config.metrics.host, config.metrics.port) : undefined;
  if (metricsServer) {
    const bound = metricsServer.address();
    logger.info({ metrics: `http://${config.metrics.host}:${typeof bound === 'object' && bound ? bound.port : config.metrics.port}/metrics` }, 'metrics served');
  }

  let stopping = false;
  // While stopping, a connection that just finished its last response is closed at once instead of
  // idling until the keep-alive timeout, so the process exits as soon as the work is done.
  const server = app?.getHttpServer();
  server?.on('request', (_req: unknown, res: { once(event: 'finish', listener: () => void): void }) =>
    res.once('finish', () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    }),
  );
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests and attempts');
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    // The API stops taking requests first, then the worker finishes its attempts in progress.
    await app?.close();
    await worker?.stop();
    metricsServer?.close();
    rateLimiter?.close();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
