import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';
import type { ApiRequest } from '../api-request';
import { refundBudget } from '../guards/rate-limit-answers';
import { noneMatchHolds, parseTagCondition, TagPart, taggedAs } from './entity-tag';

/** Answers a resource's body with its entity tag: the JSON text to send, or undefined for a 304. */
export type TaggedAnswer = (body: unknown) => string | undefined;

/**
 * The entity tag of a resource's answer (GET of one resource, PATCH): sent as `ETag`; on a GET
 * whose If-None-Match holds it, 304 with no body, at half a request's cost to its key's budget
 * (refundBudget, decisions.md 176). The answer is sent as the JSON text the tag was
 * made of, so the two cannot differ. A parameter the handler answers through rather than an
 * interceptor: a route with no interceptor skips Nest's rxjs chain around its handler (PATCH of a
 * brand paid 7 % more CPU a request with the interceptor, bench:ab). Nest sets the route's status
 * before the handler runs and not again when it sends, so the 304 set here stands; Express sends
 * it without a body. A malformed If-None-Match is a 400 before the handler runs. With a part
 * (TagPart: what an If-Match is about), the tag is of that part and of the whole.
 */
export const Tagged = createParamDecorator((part: TagPart | undefined, context: ExecutionContext): TaggedAnswer => {
  const req = context.switchToHttp().getRequest<ApiRequest>();
  const res = context.switchToHttp().getResponse<Response>();
  const noneMatch = req.method === 'GET' ? parseTagCondition(req.headers['if-none-match'], 'If-None-Match') : null;
  return (body) => {
    const json = typeof body === 'string' ? body : JSON.stringify(body);
    const tag = taggedAs(json, body, part);
    res.setHeader('ETag', tag);
    if (noneMatch && !noneMatchHolds(noneMatch, tag)) {
      refundBudget(req, res);
      res.status(304);
      return undefined;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return json;
  };
});
