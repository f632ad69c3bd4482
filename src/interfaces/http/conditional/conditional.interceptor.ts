import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import type { ApiRequest } from '../api-request';
import { entityTagOf, noneMatchHolds, parseTagCondition } from './entity-tag';

/**
 * Answered as 304 Not Modified by the error filter. Thrown rather than returned because Nest sets
 * the route's status (200) when it sends what a handler returned, after every interceptor.
 */
export class NotModified {
  constructor(readonly entityTag: string) {}
}

/**
 * The entity tag of a resource's answer (GET of one resource, PATCH): sent as `ETag`; on a GET
 * whose If-None-Match holds it, 304 with no body, and the request's count taken back from its
 * key's budget, as GitHub does (decisions.md 140). The answer is sent as the JSON text the tag was
 * made of, so the two cannot differ.
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
          throw new NotModified(tag);
        }
        if (typeof body !== 'string') res.setHeader('Content-Type', 'application/json; charset=utf-8');
        return json;
      }),
    );
  }
}
