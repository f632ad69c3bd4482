import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Admission, AuthenticateApiKey } from '../../../application/api-key/authenticate-api-key.use-case';
import { RateLimitDecision, RateLimiter } from '../../../application/rate-limit/rate-limiter.port';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import { LOGGER, type Logger } from '../../../application/shared/logger.port';
import type { ApiKeyPrincipal } from '../../../domain/api-key/api-key-repository.port';
import { ApiKeyScope, scopeAllows } from '../../../domain/api-key/api-key-scope';
import { Metrics } from '../../../application/shared/metrics.port';
import type { ApiRequest } from '../api-request';
import { readJsonBody } from '../body/json-body.reader';
import { ApiError } from '../errors/api-error';
import { REQUIRED_SCOPE } from './required-scope.decorator';
import { PORTAL_CAPABILITY, type PortalRule } from './portal-capability.decorator';
import { AuthenticatePortalSession } from '../../../application/portal/portal-access.use-case';
import { PortalRefusedError } from '../../../domain/portal/portal-session';
import { NotFoundError } from '../../../domain/shared/domain-error';
import { callerOf } from './client-address';

const PUBLIC = 'public-route';
/** Marks a route that needs no API key (health checks). Every other route needs one. */
export const Public = () => SetMetadata(PUBLIC, true);

/**
 * The gate of every /v0 request, in this order (decisions.md 38), all before the body is read:
 * 1. `x-api-key` is resolved to its tenant, and the key's budget counted with it (one round trip
 *    to Redis for a key seen before, AuthenticateApiKey); a valid key is never refused for what
 *    others sent from its address;
 * 2. a request without a valid key counts as a failed authentication of its address (IPv4, or
 *    IPv6 /64): 401, or 429 once the address is over its budget in the window; a key the cache
 *    does not know is then refused before it is looked up in PostgreSQL;
 * 3. the key's budget decides (RateLimit-* headers on every authenticated response), 429 past it;
 * 4. the key's scopes must allow the operation (RequiresScope), else 403 INSUFFICIENT_SCOPE; they
 *    came with the principal, so this costs no round trip;
 * 5. only then is the body read and parsed, and a body problem (size, type, depth, JSON) raised.
 * A portal session's token (`Authorization: Bearer lps_…`, no key) stands in for a key in 1–4
 * (admitPortal): its routes are those open to its capabilities (PortalCapable).
 * If the rate-limit store is unreachable the request goes through (fail open) and it is logged.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private lastFailOpenLog = 0;

  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly portal: AuthenticatePortalSession,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitSettings,
    private readonly reflector: Reflector,
    private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) {
      // A public route with a body (the portal link's exchange) has it read as every other route's.
      await readJsonBody(req, res);
      return true;
    }
    const windowMs = this.limits.windowSeconds * 1000;

    const header = req.headers['x-api-key'];
    const presented = typeof header === 'string' ? header : undefined;
    const portalToken = presented === undefined ? bearerToken(req) : undefined;
    const admitted = portalToken === undefined ? await this.admit(presented, req, windowMs) : await this.admitPortal(portalToken, req, context, windowMs);
    const { principal, budget } = admitted;
    req.principal = principal;
    req.admitted = admitted;

    if (!budget) this.failOpen();
    else {
      res.setHeader('RateLimit-Limit', String(budget.limit));
      res.setHeader('RateLimit-Remaining', String(budget.remaining));
      res.setHeader('RateLimit-Reset', String(resetSeconds(budget)));
      if (!budget.allowed) throw this.limited('key', budget);
    }
    this.checkScope(principal, context);
    await readJsonBody(req, res);
    return true;
  }

  /** The key's principal and its budget counted; else throws 401, or 429 when the address failed too often. */
  private async admit(presented: string | undefined, req: ApiRequest, windowMs: number): Promise<Admission> {
    // A missing or malformed key is refused without a lookup (AuthenticateApiKey). The lookup
    // began before the request's span (early-admission.middleware.ts) where that middleware ran.
    const caller = () => callerOf(req, this.limits);
    const admission = await (req.admission ?? this.authenticate.execute(presented, { limit: this.limits.max, windowMs }, caller));
    if (admission) return admission;
    const failed = await this.limiter.hit(caller().failuresKey, this.limits.authFailuresMax, windowMs);
    if (failed && !failed.allowed) throw this.limited('ip', failed);
    throw ApiError.unauthorized();
  }

  /**
   * A portal session's request (decisions.md 186): the session looked up afresh (a revocation
   * stops it at once), the route open to its capability and, where the route names a
   * subscription, to that subscription; its budget is the session's own.
   */
  private async admitPortal(token: string, req: ApiRequest, context: ExecutionContext, windowMs: number): Promise<Admission> {
    const portal = await this.portal.execute(token).catch(async (error: unknown) => {
      if (!(error instanceof PortalRefusedError)) throw error;
      const failed = await this.limiter.hit(callerOf(req, this.limits).failuresKey, this.limits.authFailuresMax, windowMs);
      if (failed && !failed.allowed) throw this.limited('ip', failed);
      throw ApiError.portalRefused(error.reason);
    });
    const rule = this.reflector.get<PortalRule | undefined>(PORTAL_CAPABILITY, context.getHandler());
    if (!rule || !portal.capabilities.includes(rule.capability) || (rule.unnarrowed && portal.subscriptionIds !== null)) {
      throw ApiError.portalNotAllowed(rule?.capability ?? null, portal.capabilities);
    }
    const subscriptionId = rule.subscriptionParam === undefined ? undefined : (req.params as Record<string, string | undefined>)[rule.subscriptionParam];
    if (subscriptionId !== undefined && portal.subscriptionIds !== null && !portal.subscriptionIds.includes(subscriptionId)) {
      throw new NotFoundError('webhook subscription', subscriptionId);
    }
    req.portal = portal;
    const budget = await this.limiter.hit(`portal:${portal.portalSessionId}`, this.limits.max, windowMs);
    return { principal: { apiKeyId: portal.portalSessionId, tenantId: portal.tenantId, scopes: portal.scopes }, budget, refund: () => false };
  }

  /** A route that declares no scope (none should: a test checks) is open to full-access keys only. */
  private checkScope(principal: ApiKeyPrincipal, context: ExecutionContext): void {
    if (principal.scopes === null) return;
    const needed = this.reflector.get<ApiKeyScope | undefined>(REQUIRED_SCOPE, context.getHandler());
    if (needed !== undefined && scopeAllows(principal.scopes, needed)) return;
    throw ApiError.insufficientScope(needed ?? null, principal.scopes);
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

/**
 * A 304 answered the request: half a request's cost (decisions.md 176), every second 304 of the
 * key's window taken back off its budget, and RateLimit-Remaining says so when this one was.
 * A function of the request, not a closure the guard leaves on each one: with that closure, each
 * request's objects lived on into the old generation, and V8's collector threads spent 60 % more
 * CPU a PATCH (docs/performance-analysis.md).
 */
export function refundBudget(req: ApiRequest, res: Response): void {
  const admitted = req.admitted;
  if (!admitted || !admitted.refund()) return;
  if (admitted.budget) res.setHeader('RateLimit-Remaining', String(Math.min(admitted.budget.limit, admitted.budget.remaining + 1)));
}

/** A portal session token in `Authorization: Bearer lps_…`; any other Authorization is not ours to read. */
function bearerToken(req: ApiRequest): string | undefined {
  const authorization = req.headers.authorization;
  return authorization !== undefined && authorization.startsWith('Bearer lps_') ? authorization.slice('Bearer '.length) : undefined;
}

function resetSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}

/** The 429 of a budget spent, with its Retry-After. */
export function rateLimited(decision: RateLimitDecision): ApiError {
  const seconds = resetSeconds(decision);
  const retryAt = new Date(Date.now() + seconds * 1000).toISOString();
  return new ApiError(429, 'RATE_LIMITED', `Too many requests; retry after ${seconds} s.`, { retryAfterSeconds: seconds, retryAt }, { 'Retry-After': String(seconds) });
}
