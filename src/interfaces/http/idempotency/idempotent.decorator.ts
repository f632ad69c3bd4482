import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiIdempotent } from '../errors/error-responses.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * A POST that honours Idempotency-Key (IdempotencyInterceptor), and says so in OpenAPI: one
 * decorator, so a POST documented as idempotent is idempotent. On the POST routes only, not on
 * every route: a route with no interceptor skips Nest's rxjs chain around its handler, which a
 * GET or a PATCH paid on every call for an interceptor that let it through.
 */
export function Idempotent() {
  return applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiIdempotent());
}
