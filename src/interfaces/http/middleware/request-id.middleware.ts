import type { NextFunction, Response } from 'express';
import { newTypeId } from '../../../domain/shared/type-id';
import type { ApiRequest } from '../api-request';

/** Gives every request its `req_` id, echoed in `x-request-id` on every response. */
export function requestId(req: ApiRequest, res: Response, next: NextFunction): void {
  req.requestId = newTypeId('req');
  // Started by the first middleware (early-admission.middleware.ts) where it ran.
  req.startedAt ??= process.hrtime.bigint();
  res.setHeader('x-request-id', req.requestId);
  next();
}
