import type { Request } from 'express';
import type { ApiKeyPrincipal } from '../../domain/api-key/api-key-repository.port';

/** What the middleware chain adds to a request before a controller sees it. */
export interface ApiRequest extends Request {
  requestId: string;
  startedAt: bigint;
  /** The request's SERVER span (server-span.middleware.ts), for the access log line. */
  traceId: string;
  spanId: string;
  principal?: ApiKeyPrincipal;
}
