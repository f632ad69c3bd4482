import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AuthenticateApiKey } from '../../application/api-key/authenticate-api-key.use-case';
import { RateLimitSettings } from '../../application/rate-limit/rate-limit-settings.port';
import type { Logger } from '../../application/shared/logger.port';
import { Metrics } from '../../application/shared/metrics.port';
import { accessLog } from './middleware/access-log.middleware';
import { earlyAdmission } from './middleware/early-admission.middleware';
import { forwardedForWarning } from './middleware/forwarded-for-warning.middleware';
import { requestId } from './middleware/request-id.middleware';
import { serverSpan } from './middleware/server-span.middleware';
import { serveOpenApi } from './openapi/openapi';
import { createValidationPipe, JsonObjectBodyPipe, SafeInputPipe } from './validation/validation.pipes';
import { PathIdPipe } from './validation/path-id.pipe';

/** Express-level settings and the middleware every request goes through, in order. */
export function configureHttp(
  app: NestExpressApplication,
  logger: Logger,
  options: { docsEnabled: boolean; trustProxy?: false | number | string; corsOrigins?: string[] },
): void {
  app.disable('x-powered-by');
  // Express's own ETags would hash every body, lists included; single resources have ours
  // (conditional/: strong, and If-Match checked under the write's lock).
  app.set('etag', false);
  // The client IP (per-IP limit on failed authentication) is the socket's, unless a proxy is trusted.
  app.set('trust proxy', options.trustProxy ?? false);
  // First the key, so that the span knows whether its caller may decide sampling; then everything
  // the request does runs in its span, the other middleware's log lines included.
  app.use(earlyAdmission(app.get(AuthenticateApiKey), app.get(RateLimitSettings)), serverSpan);
  if (!options.trustProxy) app.use(forwardedForWarning(logger));
  app.use(helmet({ crossOriginResourcePolicy: { policy: 'same-site' } }));
  // CORS is off unless origins are listed: API keys belong on servers, not in browsers.
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    app.enableCors({
      origin: options.corsOrigins,
      allowedHeaders: ['content-type', 'x-api-key', 'idempotency-key'],
      exposedHeaders: ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed'],
      maxAge: 600,
    });
  }
  // No body parser here: ApiKeyGuard reads the body once the request is let in.
  app.use(requestId, accessLog(logger, app.get(Metrics, { strict: false })));
  app.useGlobalPipes(new PathIdPipe(), new JsonObjectBodyPipe(), new SafeInputPipe(), createValidationPipe());
  if (options.docsEnabled) serveOpenApi(app);
}
