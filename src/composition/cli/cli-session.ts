import { RequestContext } from '@mikro-orm/postgresql';
import { NestFactory } from '@nestjs/core';
import { openDatabase } from '../shared/open-database';
import { CliModule } from './cli.module';
import { AppConfig } from '../../infrastructure/config/app-config';
import type { Logger } from '../../application/shared/logger.port';
import { CliSession } from '../../interfaces/cli/cli-context';

/** Opens the database (migrating it) and the use cases for one CLI command. */
export async function openCliSession(
  config: AppConfig,
  logger: Logger,
  progress: (stage: string, done: number, total: number) => void = () => {},
  options: { migrate: boolean } = { migrate: true },
): Promise<CliSession> {
  // The operator's tool: no statement timeout (a bulk seed may rightly run long statements).
  const database = await openDatabase(config, logger, options);
  try {
    const app = await NestFactory.createApplicationContext(
      CliModule.forRoot({ config, orm: database.orm, logger }),
      { logger: false, abortOnError: false },
    );
    return {
      context: { get: (type) => app.get(type), appliedMigrations: database.applied, progress },
      // A command is one request: its own EntityManager context, as an HTTP request has.
      within: (work) => RequestContext.create(database.orm.em, work),
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
