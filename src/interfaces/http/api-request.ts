import type { Request } from 'express';
import type { Admission } from '../../application/api-key/authenticate-api-key.use-case';
import type { ApiKeyPrincipal } from '../../domain/api-key/api-key-repository.port';
import type { PortalPrincipal } from '../../application/portal/portal-access.use-case';

/** What the middleware chain adds to a request before a controller sees it. */
export interface ApiRequest extends Request {
  requestId: string;
  startedAt: bigint;
  /** The request's SERVER span (server-span.middleware.ts), for the access log line. */
  traceId: string;
  spanId: string;
  principal?: ApiKeyPrincipal;
  /** Set when the caller is a portal session (Authorization: Bearer lps_…) rather than an API key. */
  portal?: PortalPrincipal;
  /** The admission the guard let the request in on: its budget, and how to take its count back (a 304). */
  admitted?: Admission;
  /** The presented key's lookup, begun before the span (early-admission.middleware.ts); absent without a key. */
  admission?: Promise<Admission | null>;
}
