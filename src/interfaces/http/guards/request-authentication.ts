import { Injectable } from '@nestjs/common';
import { Admission, AuthenticateApiKey } from '../../../application/api-key/authenticate-api-key.use-case';
import { AuthenticatePortalSession, type PortalPrincipal } from '../../../application/portal/portal-access.use-case';
import { RateLimiter } from '../../../application/rate-limit/rate-limiter.port';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import { Metrics } from '../../../application/shared/metrics.port';
import { PortalRefusedError } from '../../../domain/portal/portal-session';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';
import { callerOf } from './client-address';
import { rateLimited } from './rate-limit-answers';

/**
 * Who sent a request: an API key (its principal, with the key's budget counted in the same round
 * trip) or a portal session's token. A request that proves neither counts as a failed
 * authentication of its address (IPv4, or IPv6 /64): 401, or 429 once the address is over its
 * budget in the window.
 */
@Injectable()
export class RequestAuthentication {
  constructor(
    private readonly apiKeys: AuthenticateApiKey,
    private readonly portalSessions: AuthenticatePortalSession,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitSettings,
    private readonly metrics: Metrics,
  ) {}

  /** The key's principal and its budget counted; else throws 401, or 429 when the address failed too often. */
  async ofKey(presented: string | undefined, req: ApiRequest, windowMs: number): Promise<Admission> {
    // A missing or malformed key is refused without a lookup (AuthenticateApiKey). The lookup
    // began before the request's span (early-admission.middleware.ts) where that middleware ran.
    const caller = () => callerOf(req, this.limits);
    const admission = await (req.admission ?? this.apiKeys.execute(presented, { limit: this.limits.max, windowMs }, caller));
    if (admission) return admission;
    await this.countFailure(req, windowMs);
    throw ApiError.unauthorized();
  }

  /** The session looked up afresh (a revocation stops it at once); else the refusal, counted as a key's. */
  async ofPortalSession(token: string, req: ApiRequest, windowMs: number): Promise<PortalPrincipal> {
    return this.portalSessions.execute(token).catch(async (error: unknown) => {
      if (!(error instanceof PortalRefusedError)) throw error;
      await this.countFailure(req, windowMs);
      throw ApiError.portalRefused(error.reason);
    });
  }

  /** Counts a failed authentication of the request's address; throws the 429 once it is over budget. */
  private async countFailure(req: ApiRequest, windowMs: number): Promise<void> {
    const failed = await this.limiter.hit(callerOf(req, this.limits).failuresKey, this.limits.authFailuresMax, windowMs);
    if (failed && !failed.allowed) {
      this.metrics.rateLimited('ip');
      throw rateLimited(failed);
    }
  }
}
