import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ApiKeyScopes } from '../../../domain/api-key/api-key-scope';
import type { ApiRequest } from '../api-request';

/** The authenticated tenant's id; only on routes behind ApiKeyGuard. */
export const TenantId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<ApiRequest>().principal!.tenantId;
});

/**
 * The subscriptions a portal session is narrowed to, for a list to keep to them; null for an API
 * key or a session that reaches every subscription of the tenant.
 */
export const PortalReach = createParamDecorator((_: unknown, context: ExecutionContext): readonly string[] | null => {
  return context.switchToHttp().getRequest<ApiRequest>().portal?.subscriptionIds ?? null;
});

/** The authenticated key's scopes (null: full access), for rules that depend on what is asked. */
export const Grant = createParamDecorator((_: unknown, context: ExecutionContext): ApiKeyScopes => {
  return context.switchToHttp().getRequest<ApiRequest>().principal!.scopes;
});
