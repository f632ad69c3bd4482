import { relayWakesSent } from '../../infrastructure/persistence/outbox/relay-wake';
import { MikroORM } from '@mikro-orm/postgresql';
import { AppConfig } from '../../infrastructure/config/app-config';
import type { Logger } from '../../application/shared/logger.port';
import { DatabaseLocation, locateDatabase } from '../../infrastructure/persistence/connection/database-location';
import { migrateLocked } from '../../infrastructure/persistence/migrations/migrate';
import { createOrmConfig, PlanKeeping } from '../../infrastructure/persistence/connection/mikro-orm.config';

export interface Database {
  orm: MikroORM;
  location: DatabaseLocation;
  applied: string[];
  close(): Promise<void>;
}

/**
 * Finds (or starts) the database, connects and, unless `MIGRATE_ON_START=false` (or the caller
 * says otherwise), applies pending migrations under the migration lock.
 */
export async function openDatabase(
  config: AppConfig,
  logger: Logger,
  options: { migrate: boolean; statementTimeoutMs?: number; plans?: PlanKeeping } = { migrate: config.migrateOnStart, statementTimeoutMs: config.databaseStatementTimeoutMs },
): Promise<Database> {
  const location = await locateDatabase({ configuredUrl: config.databaseUrl, dataDir: config.dataDir, logger });
  let applied: string[] = [];
  if (options.migrate) {
    // On a connection pool of its own, without the statement timeout: a migration may rightly
    // take longer than any request.
    const migrator = await MikroORM.init(createOrmConfig(location.url, 1));
    try {
      const run = await migrateLocked(migrator);
      applied = run.applied;
      logger.info({ applied, lockWaitMs: run.waitedMs }, applied.length > 0 ? 'applied migrations' : 'migrations up to date');
    } catch (error) {
      await location.stop?.();
      throw error;
    } finally {
      await migrator.close(true);
    }
  }
  const orm = await MikroORM.init(createOrmConfig(location.url, config.databasePoolMax, options.statementTimeoutMs, options.plans));
  return {
    orm,
    location,
    applied,
    close: async () => {
      await relayWakesSent();
      await orm.close(true);
      await location.stop?.();
    },
  };
}
