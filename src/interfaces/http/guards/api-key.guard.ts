import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AuthenticateApiKey } from '../../../application/api-key/authenticate-api-key.use-case';
import { RateLimitDecision, RateLimiter, RateLimitSettings } from '../../../application/rate-limit/rate-limiter';
import { LOGGER, type Logger } from '../../../application/shared/logger';
import { Metrics } from '../../../application/shared/metrics';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';

const PUBLIC = 'public-route';
/** Marks a route that needs no API key (health checks). Every other route needs one. */
export const Public = () => SetMetadata(PUBLIC, true);

/**
 * The gate of every /v0 request, in this order:
 * 1. a client IP that failed authentication too often in the window gets 429 for everything, so
 *    keys cannot be guessed at speed (and a right guess cannot be told from a wrong one);
 * 2. `x-api-key` is resolved to its tenant, else 401 (one body for every cause);
 * 3. the key's budget is counted (RateLimit-* headers on every authenticated response), 429 past it;
 * 4. only then is a body problem (size, type, JSON) raised.
 * If the rate-limit store is unreachable the request goes through (fail open) and it is logged.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private lastFailOpenLog = 0;

  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitSettings,
    private readonly reflector: Reflector,
    private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const windowMs = this.limits.windowSeconds * 1000;
    const ipKey = `authfail:${req.ip ?? 'unknown'}`;

    const ipState = await this.limiter.peek(ipKey, this.limits.authFailuresMax, windowMs);
    if (ipState && !ipState.allowed) throw this.limited('ip', ipState);

    const header = req.headers['x-api-key'];
    const principal = await this.authenticate.execute(typeof header === 'string' ? header : undefined);
    if (!principal) {
      const failed = await this.limiter.hit(ipKey, this.limits.authFailuresMax, windowMs);
      if (failed && !failed.allowed) throw this.limited('ip', failed);
      throw ApiError.unauthorized();
    }
    req.principal = principal;

    const budget = await this.limiter.hit(`key:${principal.apiKeyId}`, this.limits.max, windowMs);
    if (!budget) this.failOpen();
    else {
      res.setHeader('RateLimit-Limit', String(budget.limit));
      res.setHeader('RateLimit-Remaining', String(budget.remaining));
      res.setHeader('RateLimit-Reset', String(resetSeconds(budget)));
      if (!budget.allowed) throw this.limited('key', budget);
    }
    if (req.bodyError) throw req.bodyError;
    return true;
  }

  private limited(scope: 'key' | 'ip', decision: RateLimitDecision): ApiError {
    this.metrics.rateLimited(scope);
    return rateLimited(decision);
  }

  private failOpen(): void {
    this.metrics.rateLimitFailOpen();
    if (Date.now() - this.lastFailOpenLog < 10_000) return;
    this.lastFailOpenLog = Date.now();
    this.logger.warn({}, 'rate-limit store unreachable: requests are let through without limits');
  }
}

function resetSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}

function rateLimited(decision: RateLimitDecision): ApiError {
  const seconds = resetSeconds(decision);
  const retryAt = new Date(Date.now() + seconds * 1000).toISOString();
  return new ApiError(429, 'RATE_LIMITED', `Too many requests; retry after ${seconds} s.`, { retryAfterSeconds: seconds, retryAt }, { 'Retry-After': String(seconds) });
}
