import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { Admission } from '../../../application/api-key/authenticate-api-key.use-case';
import { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import type { ApiRequest } from '../api-request';
import { readJsonBody } from '../body/json-body.reader';
import { BudgetAdmission } from './budget-admission';
import { RequestAuthentication } from './request-authentication';
import { RouteAuthorisation } from './route-authorisation';

const PUBLIC = 'public-route';
/** Marks a route that needs no API key (health checks). Every other route needs one. */
export const Public = () => SetMetadata(PUBLIC, true);

/**
 * The gate of every /v0 request, in this order (decisions.md 38), all before the body is read:
 * 1. authenticate (RequestAuthentication): `x-api-key` resolved to its tenant, the key's budget
 *    counted with it (one round trip to Redis for a key seen before); without a valid key, a
 *    failed authentication of the address: 401, or 429 over its budget, and a key the cache does
 *    not know is refused before it is looked up in PostgreSQL;
 * 2. admit (BudgetAdmission): the budget decides, RateLimit-* headers on every authenticated
 *    answer, 429 past it; fail open when the limit store is unreachable;
 * 3. authorise (RouteAuthorisation): the key's scopes must allow the operation, else 403;
 * 4. only then is the body read and parsed, and a body problem (size, type, depth, JSON) raised.
 * A portal session's token (`Authorization: Bearer lps_…`, no key) stands in for a key: its
 * route is authorised before its budget is counted, which is its own.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authentication: RequestAuthentication,
    private readonly budget: BudgetAdmission,
    private readonly authorisation: RouteAuthorisation,
    private readonly limits: RateLimitSettings,
    private readonly reflector: Reflector,
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
    const admitted = portalToken === undefined ? await this.authentication.ofKey(presented, req, windowMs) : await this.admitPortal(portalToken, req, context, windowMs);
    req.principal = admitted.principal;
    req.admitted = admitted;
    this.budget.enforce(admitted.budget, res);
    this.authorisation.checkScope(admitted.principal, context);
    await readJsonBody(req, res);
    return true;
  }

  private async admitPortal(token: string, req: ApiRequest, context: ExecutionContext, windowMs: number): Promise<Admission> {
    const portal = await this.authentication.ofPortalSession(token, req, windowMs);
    this.authorisation.checkPortalRoute(portal, req, context);
    req.portal = portal;
    return this.budget.ofPortalSession(portal, windowMs);
  }
}

/** A portal session token in `Authorization: Bearer lps_…`; any other Authorization is not ours to read. */
function bearerToken(req: ApiRequest): string | undefined {
  const authorization = req.headers.authorization;
  return authorization !== undefined && authorization.startsWith('Bearer lps_') ? authorization.slice('Bearer '.length) : undefined;
}
