import { NestFactory } from '@nestjs/core';
import { openDatabase } from './bootstrap';
import { CliModule } from './cli.module';
import { AppConfig } from './infrastructure/config/app-config';
import type { Logger } from './infrastructure/logging/logger';
import { CliContext } from './interfaces/cli/cli-context';

/** Opens the database (migrating it) and the use cases for one CLI command. */
export async function openCliSession(config: AppConfig, logger: Logger): Promise<{ context: CliContext; close: () => Promise<void> }> {
  const database = await openDatabase(config, logger);
  try {
    const app = await NestFactory.createApplicationContext(
      // One EntityManager fork for the whole command: it is one unit of work.
      CliModule.forRoot({ config, orm: database.orm, logger, em: database.orm.em.fork() }),
      { logger: false, abortOnError: false },
    );
    return {
      context: { get: (type) => app.get(type), appliedMigrations: database.applied },
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
