import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createHttpApp } from './http-app';
import { loadConfig } from '../../infrastructure/config/app-config';
import { createLogger } from '../../infrastructure/logging/logger';
import { createOrmConfig } from '../../infrastructure/persistence/connection/mikro-orm.config';
import { buildOpenApiDocument } from '../../interfaces/http/openapi/openapi';

/**
 * The service's OpenAPI document, built from the same application as the running API but without
 * any connection (the ORM connects lazily and nothing here queries). `npm run openapi:generate`
 * (scripts/generate-openapi.mjs) writes it to openapi/openapi.json, from which the typed client in client/ is generated.
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
    SECRETS_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
  });
  const orm = await MikroORM.init(createOrmConfig(config.databaseUrl!, 1));
  const app = await createHttpApp({ config, orm, logger: createLogger('silent') });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
    await orm.close(true);
  }
}
