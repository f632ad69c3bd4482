import type { Request } from 'express';
import type { ApiKeyPrincipal } from '../../domain/api-key/api-key.repository';
import type { ApiError } from './errors/api-error';

/** What the middleware chain adds to a request before a controller sees it. */
export interface ApiRequest extends Request {
  requestId: string;
  startedAt: bigint;
  principal?: ApiKeyPrincipal;
  /** A body that could not be read (size, type, JSON), raised only after authentication. */
  bodyError?: ApiError;
}
