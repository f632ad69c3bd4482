import { MikroORM } from '@mikro-orm/postgresql';
import { AppConfig } from './infrastructure/config/app-config';
import type { Logger } from './infrastructure/logging/logger';
import { DatabaseLocation, locateDatabase } from './infrastructure/persistence/database-location';
import { migrate } from './infrastructure/persistence/migrate';
import { createOrmConfig } from './infrastructure/persistence/mikro-orm.config';

export interface Database {
  orm: MikroORM;
  location: DatabaseLocation;
  applied: string[];
  close(): Promise<void>;
}

/** Finds (or starts) the database, connects and applies pending migrations. */
export async function openDatabase(config: AppConfig, logger: Logger, options: { migrate: boolean } = { migrate: true }): Promise<Database> {
  const location = await locateDatabase({ configuredUrl: config.databaseUrl, dataDir: config.dataDir, logger });
  const orm = await MikroORM.init(createOrmConfig(location.url, config.databasePoolMax));
  const applied = options.migrate ? await migrate(orm) : [];
  if (applied.length > 0) logger.info({ applied }, 'applied migrations');
  return {
    orm,
    location,
    applied,
    close: async () => {
      await orm.close(true);
      await location.stop?.();
    },
  };
}
