import { RequestContext } from '@mikro-orm/postgresql';
import { NestFactory } from '@nestjs/core';
import { openDatabase } from '../shared/open-database';
import { CliModule } from './cli.module';
import { MakeHistoryDaysAhead } from '../../application/webhook/history/make-history-days-ahead.use-case';
import { AppConfig } from '../../infrastructure/config/app-config';
import type { Logger } from '../../application/shared/logger.port';
import { CliSession } from '../../interfaces/cli/cli-context';
import { chooseQueueBackend, redisOf } from '../../infrastructure/queue/queue-backend';
import { connectRedis, RedisConnection } from '../../infrastructure/redis/redis-connection';
import { RedisApiKeyCache } from '../../infrastructure/api-keys/redis-api-key.cache';
import { resolveEncryptionKey } from '../../infrastructure/crypto/encryption-key';
import { RedisSeal } from '../../infrastructure/crypto/redis-seal';
import { UnreachableApiKeyCache } from '../../infrastructure/api-keys/unreachable-api-key.cache';

/** Opens the database (migrating it) and the use cases for one CLI command. */
export async function openCliSession(
  config: AppConfig,
  logger: Logger,
  progress: (stage: string, done: number, total: number) => void = () => {},
  options: { migrate: boolean; localRedis?: { host: string; port: number } } = { migrate: true },
): Promise<CliSession> {
  // The operator's tool: no statement timeout (a bulk seed may rightly run long statements).
  const database = await openDatabase(config, logger, { migrate: options.migrate });
  // The API's key cache, so that a revocation reaches it; connected only if a command uses it.
  // With no Redis here, a revocation is complete only if no API process holds a cache.
  const cacheRedis = await keyCacheRedis(config, database.location.url, logger, options.localRedis);
  try {
    const app = await NestFactory.createApplicationContext(
      CliModule.forRoot({ config, orm: database.orm, logger, apiKeyCache: cacheRedis ? new RedisApiKeyCache(cacheRedis, 'lp:', keyCacheSeal(config, logger)) : new UnreachableApiKeyCache(database.orm) }),
      { logger: false, abortOnError: false },
    );
    // Commands write events too (page versions, the demo seed): the days they go to are made here
    // as well. A failure (a lock not had in time) is the worker's and the API's to mend next time.
    await app
      .get(MakeHistoryDaysAhead)
      .execute()
      .catch((error: Error) => logger.warn({ err: { message: error.message } }, 'could not make the history days ahead'));
    return {
      context: { get: (type) => app.get(type), appliedMigrations: database.applied, progress },
      // A command is one request: its own EntityManager context, as an HTTP request has.
      within: (work) => RequestContext.create(database.orm.em, work),
      close: async () => {
        await app.close();
        cacheRedis?.disconnect();
        await database.close();
      },
    };
  } catch (error) {
    cacheRedis?.disconnect();
    await database.close();
    throw error;
  }
}

/** The Redis the API processes keep their key cache in (the same choice as theirs), lazily connected. */
async function keyCacheRedis(config: AppConfig, databaseUrl: string, logger: Logger, localRedis?: { host: string; port: number }): Promise<RedisConnection | undefined> {
  const redis = redisOf(await chooseQueueBackend(config, databaseUrl, silent(logger), localRedis));
  if (!redis) return undefined;
  return connectRedis(redis, { lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: 1, commandTimeout: 2000, connectTimeout: 2000 });
}

/** The CLI's output is the command's: the backend choice is not news to the operator. */
function silent(logger: Logger): Logger {
  return { error: logger.error.bind(logger), warn: logger.warn.bind(logger), info: () => undefined, debug: () => undefined, trace: () => undefined };
}

/** The API's seal of key-cache entries (the CLI only marks revocations, which need none). */
function keyCacheSeal(config: AppConfig, logger: Logger): RedisSeal {
  return new RedisSeal(resolveEncryptionKey(config.secretsEncryptionKey, config.dataDir, logger), 'api-key-cache');
}
