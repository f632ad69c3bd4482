import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Admission } from '../../../application/api-key/authenticate-api-key.use-case';
import type { PortalPrincipal } from '../../../application/portal/portal-access.use-case';
import { RateLimitDecision, RateLimiter } from '../../../application/rate-limit/rate-limiter.port';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import { LOGGER, type Logger } from '../../../application/shared/logger.port';
import { Metrics } from '../../../application/shared/metrics.port';
import { rateLimited, resetSeconds } from './rate-limit-answers';

/**
 * The budget's word on an authenticated request: RateLimit-* headers on every answer, 429 past
 * the budget. A portal session's budget is its own, counted here; a key's was counted with its
 * lookup. With the limit store unreachable the request goes through (fail open), logged at most
 * every ten seconds.
 */
@Injectable()
export class BudgetAdmission {
  private lastFailOpenLog = 0;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitSettings,
    private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async ofPortalSession(portal: PortalPrincipal, windowMs: number): Promise<Admission> {
    const budget = await this.limiter.hit(`portal:${portal.portalSessionId}`, this.limits.max, windowMs);
    return { principal: { apiKeyId: portal.portalSessionId, tenantId: portal.tenantId, scopes: portal.scopes }, budget, refund: () => false };
  }

  enforce(budget: RateLimitDecision | null, res: Response): void {
    if (!budget) return this.failOpen();
    res.setHeader('RateLimit-Limit', String(budget.limit));
    res.setHeader('RateLimit-Remaining', String(budget.remaining));
    res.setHeader('RateLimit-Reset', String(resetSeconds(budget)));
    if (budget.allowed) return;
    this.metrics.rateLimited('key');
    throw rateLimited(budget);
  }

  private failOpen(): void {
    this.metrics.rateLimitFailOpen();
    if (Date.now() - this.lastFailOpenLog < 10_000) return;
    this.lastFailOpenLog = Date.now();
    this.logger.warn({}, 'rate-limit store unreachable: requests are let through without limits');
  }
}
