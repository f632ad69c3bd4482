import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from '../../application/shared/logger.port';
import type { Metrics } from '../../application/shared/metrics.port';
import { AppConfig } from '../../infrastructure/config/app-config';
import { chooseQueueBackend, redisOf } from '../../infrastructure/queue/queue-backend';
import { startBareFloor } from '../../interfaces/bench/bare-floor.server';
import { RedisApiKeyCache } from '../../infrastructure/api-keys/redis-api-key.cache';
import { resolveEncryptionKey } from '../../infrastructure/crypto/encryption-key';
import { RedisSeal } from '../../infrastructure/crypto/redis-seal';
import { RedisRateLimiter } from '../../infrastructure/rate-limit/redis-rate-limiter';
import { registerKeyCacheHolder } from '../../infrastructure/persistence/api-keys/key-cache-holders';
import type { Database } from '../shared/open-database';
import { createHttpApp } from './http-app';
import { MakeHistoryDaysAhead } from '../../application/webhook/history/make-history-days-ahead.use-case';
import { historyDaysAheadLoop } from '../../interfaces/worker/upkeep.loops';

/** How often the API makes the history's days ahead (they are made two weeks ahead: hourly is plenty). */
const HISTORY_DAYS_INTERVAL_MS = 3_600_000;

export interface RunningApi {
  app: NestExpressApplication;
  /** Stops taking requests, finishes those in flight (closing each connection as it goes idle). */
  close(): Promise<void>;
}

/** The HTTP API, listening: rate limits in Redis when there is one, else counted in this process. */
export async function startApi(deps: { config: AppConfig; database: Database; logger: Logger; metrics: Metrics }): Promise<RunningApi> {
  const { config, database, logger } = deps;
  const redis = redisOf(await chooseQueueBackend(config, database.location.url, logger));
  let rateLimiter: RedisRateLimiter | undefined;
  let apiKeyCache: RedisApiKeyCache | undefined;
  if (redis) {
    rateLimiter = new RedisRateLimiter(redis, 'lp:', { commandTimeoutMs: config.rateLimit.storeTimeoutMs });
    // Keys already seen beside their budgets, on the same connection: one round trip a request.
    // Its entries are sealed with a key Redis never holds (decisions.md 180).
    apiKeyCache = new RedisApiKeyCache(rateLimiter.redis, 'lp:', new RedisSeal(resolveEncryptionKey(config.secretsEncryptionKey, config.dataDir, logger), 'api-key-cache'));
    await rateLimiter.ready();
  }
  // Registered while it runs, so that a revocation made where this Redis cannot be reached does
  // not claim to be complete (UnreachableApiKeyCache).
  const holder = apiKeyCache ? await registerKeyCacheHolder(database.orm, logger) : undefined;
  const app = await createHttpApp({ config, orm: database.orm, logger, rateLimiter, apiKeyCache, metrics: deps.metrics });
  // The API writes events: it makes the days they go to, whether a worker runs or not.
  const historyDays = historyDaysAheadLoop(app.get(MakeHistoryDaysAhead), logger, HISTORY_DAYS_INTERVAL_MS);
  historyDays.start();
  await historyDays.tick();
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  // `npm run bench` only: baseline (c), the bare floor, on a port of its own.
  const floor =
    config.benchBaselines && config.benchFloorPort
      ? await startBareFloor({ connectionString: database.location.url, poolMax: config.databasePoolMax, port: config.benchFloorPort })
      : undefined;
  logger.info(
    { api: `${base}/v0`, docs: config.docsEnabled ? `${base}/docs` : 'disabled', openapi: config.docsEnabled ? `${base}/docs-json` : 'disabled', database: database.location.source },
    `API listening on ${base}/v0${config.docsEnabled ? `, docs at ${base}/docs` : ''}`,
  );

  let closing = false;
  // While closing, a connection that just finished its last response is closed at once instead
  // of idling until the keep-alive timeout, so the process exits as soon as the work is done.
  const server = app.getHttpServer();
  server.on('request', (_req: unknown, res: { once(event: 'finish', listener: () => void): void }) =>
    res.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    }),
  );
  return {
    app,
    close: async () => {
      closing = true;
      await historyDays.stop();
      await app.close();
      await floor?.close();
      await holder?.stop();
      rateLimiter?.close();
    },
  };
}
