import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateApiKey } from '../../../application/api-key/authenticate-api-key.use-case';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';

const PUBLIC = 'public-route';
/** Marks a route that needs no API key (health checks). Every other route needs one. */
export const Public = () => SetMetadata(PUBLIC, true);

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = req.headers['x-api-key'];
    const principal = await this.authenticate.execute(typeof header === 'string' ? header : undefined);
    if (!principal) throw ApiError.unauthorized();
    req.principal = principal;
    // Body errors are raised only now, after the caller has proven who it is.
    if (req.bodyError) throw req.bodyError;
    return true;
  }
}
