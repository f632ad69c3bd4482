import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from '../../application/shared/logger';
import { accessLog } from './middleware/access-log.middleware';
import { jsonBody } from './middleware/json-body.middleware';
import { requestId } from './middleware/request-id.middleware';
import { serveOpenApi } from './openapi/openapi';
import { createValidationPipe, JsonObjectBodyPipe } from './validation/validation.pipes';

/** Express-level settings and the middleware every request goes through, in order. */
export function configureHttp(app: NestExpressApplication, logger: Logger, options: { docsEnabled: boolean }): void {
  app.disable('x-powered-by');
  // ETags would hash every body for a cache nobody asked for.
  app.set('etag', false);
  app.use(requestId, accessLog(logger), jsonBody);
  app.useGlobalPipes(new JsonObjectBodyPipe(), createValidationPipe());
  if (options.docsEnabled) serveOpenApi(app);
}
