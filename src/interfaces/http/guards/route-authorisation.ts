import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { PortalPrincipal } from '../../../application/portal/portal-access.use-case';
import type { ApiKeyPrincipal } from '../../../domain/api-key/api-key-repository.port';
import { ApiKeyScope, scopeAllows } from '../../../domain/api-key/api-key-scope';
import { NotFoundError } from '../../../domain/shared/domain-error';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';
import { PORTAL_CAPABILITY, type PortalRule } from './portal-capability.decorator';
import { REQUIRED_SCOPE } from './required-scope.decorator';

/** Whether the authenticated caller may use the route: from what it already holds, no round trip. */
@Injectable()
export class RouteAuthorisation {
  constructor(private readonly reflector: Reflector) {}

  /** The key's scopes must allow the route (RequiresScope), else 403 INSUFFICIENT_SCOPE. A route that declares no scope (none should: a test checks) is open to full-access keys only. */
  checkScope(principal: ApiKeyPrincipal, context: ExecutionContext): void {
    if (principal.scopes === null) return;
    const needed = this.reflector.get<ApiKeyScope | undefined>(REQUIRED_SCOPE, context.getHandler());
    if (needed !== undefined && scopeAllows(principal.scopes, needed)) return;
    throw ApiError.insufficientScope(needed ?? null, principal.scopes);
  }

  /**
   * A portal session's request (decisions.md 186): the route open to its capability (PortalCapable)
   * and, where the route names a subscription, to that subscription (else 404, as for any other
   * tenant's subscription).
   */
  checkPortalRoute(portal: PortalPrincipal, req: ApiRequest, context: ExecutionContext): void {
    const rule = this.reflector.get<PortalRule | undefined>(PORTAL_CAPABILITY, context.getHandler());
    if (!rule || !portal.capabilities.includes(rule.capability) || (rule.unnarrowed && portal.subscriptionIds !== null)) {
      throw ApiError.portalNotAllowed(rule?.capability ?? null, portal.capabilities);
    }
    const subscriptionId = rule.subscriptionParam === undefined ? undefined : (req.params as Record<string, string | undefined>)[rule.subscriptionParam];
    if (subscriptionId !== undefined && portal.subscriptionIds !== null && !portal.subscriptionIds.includes(subscriptionId)) {
      throw new NotFoundError('webhook subscription', subscriptionId);
    }
  }
}
