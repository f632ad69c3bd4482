import { MikroORM } from '@mikro-orm/postgresql';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createHttpApp } from '../../src/composition/api/http-app';
import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { CreateTenant } from '../../src/application/tenant/create-tenant.use-case';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import type { ApiKeyCache } from '../../src/application/api-key/api-key-cache.port';
import type { RateLimiter } from '../../src/application/rate-limit/rate-limiter.port';
import type { Logger } from '../../src/application/shared/logger.port';
import { inContext, openTestOrm } from './database';
import { testLogger } from './silent-logger';

export interface TestApp {
  app: NestExpressApplication;
  orm: MikroORM;
  http: ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The real API (every middleware, guard, pipe and filter) on the test database, in process. */
export async function startTestApp(
  options: { logger?: Logger; orm?: MikroORM; env?: Record<string, string>; rateLimiter?: RateLimiter; apiKeyCache?: ApiKeyCache } = {},
): Promise<TestApp> {
  const orm = options.orm ?? (await openTestOrm());
  const config = loadConfig({
    DATABASE_URL: orm.config.get('clientUrl'),
    LOG_LEVEL: 'silent',
    SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY,
    // Test receivers listen on loopback; the refusal of private targets has tests of its own.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Tests make hundreds of requests with one key; the limit has tests of its own.
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_AUTH_FAILURES_MAX: '1000000',
    ...options.env,
  });
  const app = await createHttpApp({ config, orm, logger: options.logger ?? testLogger(), rateLimiter: options.rateLimiter, apiKeyCache: options.apiKeyCache });
  await app.init();
  return {
    app,
    orm,
    http: request(app.getHttpServer()),
    close: async () => {
      await app.close();
      if (!options.orm) await orm.close(true);
    },
  };
}

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  apiKeyId: string;
}

/** A new tenant with an active key: each test makes its own, so tests never see each other's data. */
export async function createTenant(testApp: TestApp, name = 'Test tenant'): Promise<TestTenant> {
  return inContext(testApp.orm, async () => {
    const { tenantId } = await testApp.app.get(CreateTenant).execute({ name });
    const { apiKey, apiKeyId } = await testApp.app.get(CreateApiKey).execute({ tenantId });
    return { tenantId, apiKey, apiKeyId };
  });
}
