import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../infrastructure/config/app-config';
import { ConfigError } from '../infrastructure/config/config-error';
import { createLogger } from '../infrastructure/logging/logger';
import { stopTracing } from '../infrastructure/tracing/tracing';
import { startMetricsServer } from '../infrastructure/metrics/metrics-server';
import { registerHistoryGauge, registerOutboxGauges } from '../infrastructure/metrics/operational-gauges';
import { PrometheusMetrics } from '../infrastructure/metrics/prometheus.metrics';
import { UnservedMetrics } from '../infrastructure/metrics/unserved-metrics';
import { createOrmConfig } from '../infrastructure/persistence/connection/mikro-orm.config';
import { RunningApi, startApi } from './api/api-process';
import { openDatabase } from './shared/open-database';
import { startWebhookWorker, WebhookWorker } from './worker/webhook-worker';
import { tuneWorkerHeap } from './worker/worker-heap';

/**
 * The service process (`npm start`): the API, the webhook worker or both (SERVICE_ROLE), on one
 * migrated database, with the metrics server, until SIGTERM or SIGINT: then the API stops taking
 * requests, the worker finishes its attempts, and the process exits (forced after
 * SHUTDOWN_GRACE_MS).
 */
export async function runService(): Promise<void> {
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
  const role = config.serviceRole;
  if (role === 'worker') tuneWorkerHeap();
  // A worker alone plans its statements per call (PlanKeeping); the API keeps its plans.
  const database = await openDatabase(config, logger, { migrate: config.migrateOnStart, statementTimeoutMs: config.databaseStatementTimeoutMs, plans: role === 'worker' ? 'per-call' : 'kept' });
  const prometheus = config.metrics.enabled ? new PrometheusMetrics() : undefined;
  const metrics = prometheus ?? new UnservedMetrics();
  if (prometheus) {
    registerOutboxGauges(prometheus, database.orm);
    registerHistoryGauge(prometheus, database.orm);
  }
  const api: RunningApi | undefined = role !== 'worker' ? await startApi({ config, database, logger, metrics }) : undefined;
  let worker: WebhookWorker | undefined;
  if (role !== 'api') {
    // In one process the worker gets a connection pool of its own: a burst of deliveries must
    // never make API requests wait for a connection.
    const workerOrm = role === 'all' ? await MikroORM.init(createOrmConfig(database.location.url, config.databasePoolMax, config.databaseStatementTimeoutMs, 'per-call')) : database.orm;
    worker = await startWebhookWorker({ config, orm: workerOrm, databaseUrl: database.location.url, logger, metrics });
  }
  const metricsServer = prometheus ? await startMetricsServer(prometheus.registry, config.metrics.host, config.metrics.port) : undefined;
  if (metricsServer) {
    const bound = metricsServer.address();
    logger.info({ metrics: `http://${config.metrics.host}:${typeof bound === 'object' && bound ? bound.port : config.metrics.port}/metrics` }, 'metrics served');
  }

  let stopping = false;
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
    await api?.close();
    await worker?.stop();
    metricsServer?.close();
    await database.close();
    // The last spans go out before the process does.
    await stopTracing().catch(() => undefined);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
