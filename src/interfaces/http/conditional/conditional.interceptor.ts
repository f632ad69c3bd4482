import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import type { ApiRequest } from '../api-request';
import { entityTagOf, noneMatchHolds, parseTagCondition } from './entity-tag';

/**
 * The entity tag of a resource's answer (GET of one resource, PATCH): sent as `ETag`; on a GET
 * whose If-None-Match holds it, 304 with no body, and the request's count taken back from its
 * key's budget, as GitHub does (decisions.md 140). The answer is sent as the JSON text the tag was
 * made of, so the two cannot differ. Nest sets the route's status before the interceptors run and
 * not again when it sends, so the 304 set here stands; Express sends it without a body.
 */
@Injectable()
export class ConditionalInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    // Checked before the handler runs: a malformed header is a 400 whatever the resource.
    const noneMatch = req.method === 'GET' ? parseTagCondition(req.headers['if-none-match'], 'If-None-Match') : null;
    return next.handle().pipe(
      map((body: unknown) => {
        const json = typeof body === 'string' ? body : JSON.stringify(body);
        const tag = entityTagOf(json);
        res.setHeader('ETag', tag);
        if (noneMatch && !noneMatchHolds(noneMatch, tag)) {
          req.refundBudget?.();
          res.status(304);
          return undefined;
        }
        if (typeof body !== 'string') res.setHeader('Content-Type', 'application/json; charset=utf-8');
        return json;
      }),
    );
  }
}
