import type { NextFunction, Response } from 'express';
import { Admission, AuthenticateApiKey } from '../../../application/api-key/authenticate-api-key.use-case';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import type { ApiRequest } from '../api-request';
import { callerOf } from '../guards/client-address';

/**
 * First of all: a presented `x-api-key` is resolved (and its budget counted) before the request's
 * span starts, so that the span knows whether its caller is a known one: only a valid key's
 * request may have its incoming `traceparent` decide sampling (server-span.middleware.ts). The
 * guard awaits the same answer (ApiKeyGuard), so a key still costs one lookup. The request's
 * clock starts here, so its logged duration includes the lookup as before. Only under /v0: no
 * other route takes a key (health, docs), so none looks one up or counts it (decisions.md 182).
 */
export function earlyAdmission(authenticate: AuthenticateApiKey, limits: RateLimitSettings) {
  return (req: ApiRequest, _res: Response, next: NextFunction): void => {
    req.startedAt = process.hrtime.bigint();
    const header = req.headers['x-api-key'];
    if (typeof header === 'string' && isApiPath(req.path)) req.admission = authenticate.execute(header, { limit: limits.max, windowMs: limits.windowSeconds * 1000 }, () => callerOf(req, limits));
    next();
  };
}

/** Whether a path is the API's, the only routes that take a key. */
export function isApiPath(path: string): boolean {
  return path === '/v0' || path.startsWith('/v0/');
}

/** Whether the request's key was found valid; false when it had none or the lookup failed. */
export function admitted(req: ApiRequest): Promise<boolean> | undefined {
  return req.admission?.then(
    (admission: Admission | null) => admission !== null,
    () => false,
  );
}
