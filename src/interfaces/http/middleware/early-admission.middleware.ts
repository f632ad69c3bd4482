import type { NextFunction, Response } from 'express';
import { Admission, AuthenticateApiKey } from '../../../application/api-key/authenticate-api-key.use-case';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import type { ApiRequest } from '../api-request';

/**
 * First of all: a presented `x-api-key` is resolved (and its budget counted) before the request's
 * span starts, so that the span knows whether its caller is a known one: only a valid key's
 * request may have its incoming `traceparent` decide sampling (server-span.middleware.ts). The
 * guard awaits the same answer (ApiKeyGuard), so a key still costs one lookup. The request's
 * clock starts here, so its logged duration includes the lookup as before.
 */
export function earlyAdmission(authenticate: AuthenticateApiKey, limits: RateLimitSettings) {
  return (req: ApiRequest, _res: Response, next: NextFunction): void => {
    req.startedAt = process.hrtime.bigint();
    const header = req.headers['x-api-key'];
    if (typeof header === 'string') req.admission = authenticate.execute(header, { limit: limits.max, windowMs: limits.windowSeconds * 1000 });
    next();
  };
}

/** Whether the request's key was found valid; false when it had none or the lookup failed. */
export function admitted(req: ApiRequest): Promise<boolean> | undefined {
  return req.admission?.then(
    (admission: Admission | null) => admission !== null,
    () => false,
  );
}
