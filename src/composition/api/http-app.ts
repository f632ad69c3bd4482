import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { BenchAppModule } from './bench-app.module';
import type { InfrastructureDeps } from '../shared/infrastructure.module';
import { NestPinoLogger } from '../../infrastructure/logging/nest-logger';
import { requestContext } from '../../infrastructure/persistence/connection/request-context.middleware';
import { startTracing } from '../../infrastructure/tracing/tracing';
import { configureHttp } from '../../interfaces/http/configure-http';

/** The API as a Nest application, configured but not listening (tests use it as it is). */
export async function createHttpApp(deps: InfrastructureDeps): Promise<NestExpressApplication> {
  // Trace context is always on (the service process started it already; an app composed in a test starts it here).
  startTracing();
  const app = await NestFactory.create<NestExpressApplication>(deps.config.benchBaselines ? BenchAppModule.forRoot(deps) : AppModule.forRoot(deps), {
    bodyParser: false,
    logger: new NestPinoLogger(deps.logger),
    abortOnError: false,
  });
  app.use(requestContext(deps.orm));
  configureHttp(app, deps.logger, { docsEnabled: deps.config.docsEnabled, trustProxy: deps.config.trustProxy, corsOrigins: deps.config.corsOrigins });
  return app;
}
