import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, Observable } from 'rxjs';
import { IdempotencyStore } from '../../../application/idempotency/idempotency-store.port';
import { UnitOfWork } from '../../../application/shared/unit-of-work.port';
import { Clock } from '../../../domain/shared/clock.port';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const TTL_MS = 24 * 60 * 60 * 1000;
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/**
 * Idempotency-Key on every POST (Stripe's semantics): the first request's response is kept 24 h
 * per API key and key and replayed to retries with `Idempotent-Replayed: true`; the same key with
 * another method, path or body is 422; while the first still runs, 409. The whole request is one
 * transaction that holds the key (IdempotencyStore): the kept response commits with the change,
 * so no crash can leave one without the other and no retry can make the change twice; and the
 * key is free the moment that transaction ends, however it ends (an answer, a 503, a killed
 * process, a cut connection), so a retry after a fault runs, or replays, at once. Requests that
 * fail change nothing and keep nothing: the key may be used again, e.g. with a corrected body.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (req.method !== 'POST' || header === undefined || !req.principal) return next.handle();
    if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
      throw ApiError.validation('Idempotency-Key', 'must be 1 to 255 printable ASCII characters');
    }
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.run(req, res, header, status, next));
  }

  private run(req: ApiRequest, res: Response, key: string, status: number, next: CallHandler): Promise<unknown> {
    const { tenantId, apiKeyId } = req.principal!;
    const owner = { tenantId, apiKeyId };
    const print = fingerprint(req);
    return this.unitOfWork.run(async () => {
      const seen = await this.store.hold(owner, key, this.clock.now());
      if (seen === 'busy') throw inProgress();
      if (seen) {
        if (seen.fingerprint !== print) {
          throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request.', { header: 'Idempotency-Key' });
        }
        res.setHeader('Idempotent-Replayed', 'true');
        return JSON.parse(seen.responseBody);
      }
      const body = await lastValueFrom(next.handle());
      await this.store.keep(owner, key, { fingerprint: print, responseStatus: status, responseBody: JSON.stringify(body ?? null) }, this.clock.now(), TTL_MS);
      return body;
    });
  }
}

function inProgress(): ApiError {
  return new ApiError(409, 'CONFLICT', 'A request with this Idempotency-Key is still in progress; retry later.', { header: 'Idempotency-Key' });
}

/** Method, path and body (keys sorted, so whitespace and key order do not matter). */
function fingerprint(req: ApiRequest): string {
  return createHash('sha256').update(`${req.method} ${req.path}\n${canonical(req.body ?? {})}`).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

