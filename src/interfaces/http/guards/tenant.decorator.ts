import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ApiRequest } from '../api-request';

/** The authenticated tenant's id; only on routes behind ApiKeyGuard. */
export const TenantId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<ApiRequest>().principal!.tenantId;
});
