import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '../../../domain/shared/domain-error';
import { newTypeId } from '../../../domain/shared/type-id';
import type { Logger } from '../../../application/shared/logger.port';
import { LOGGER } from '../../../application/shared/logger.port';
import type { ApiRequest } from '../api-request';
import { ApiError, DOMAIN_ERRORS, ErrorBody, ErrorCode } from './api-error';
import { isDatabaseUnavailable } from './unavailable';

const RETRY_AFTER_SECONDS = '5';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The one place that turns anything thrown into the spec's error body. Nothing internal (stack,
 * SQL, class names) reaches the body; unexpected errors are logged with the request id.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<Response>();
    const requestId = req.requestId ?? newTypeId('req');
    const error = this.toApiError(exception, requestId);
    if (res.headersSent) {
      res.end();
      return;
    }
    const body: ErrorBody = { code: error.code, message: error.message, requestId };
    if (error.details) body.details = error.details;
    res.status(error.status).set({ ...error.headers, 'x-request-id': requestId }).json(body);
  }

  private toApiError(exception: unknown, requestId: string): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof DomainError) {
      const { status, code } = DOMAIN_ERRORS[exception.code];
      const headers = exception.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(exception.retryAfterSeconds) };
      return new ApiError(status, code, exception.message, exception.details, headers);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // A path segment that is not even valid percent-encoding cannot name anything: not found.
      if (status === 400 && /^Failed to decode param/.test(exception.message)) return ApiError.notFound();
      const code = CODE_BY_STATUS[status];
      if (status === 400) return ApiError.validation('request', 'is malformed');
      if (code && status < 500) return new ApiError(status, code, status === 404 ? 'The requested resource was not found.' : exception.message);
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ requestId, err: summary(exception) }, 'database unavailable');
      return new ApiError(503, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry later.', undefined, {
        'Retry-After': RETRY_AFTER_SECONDS,
      });
    }
    this.logger.error({ requestId, err: summary(exception) }, 'unexpected error');
    return new ApiError(500, 'INTERNAL_ERROR', 'An unexpected error occurred.');
  }
}

/** Name, code and the start of the message: enough to find the bug, never a whole SQL text. */
function summary(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof Error)) return { value: typeof exception };
  const code = (exception as { code?: unknown }).code;
  return {
    name: exception.name,
    code: typeof code === 'string' ? code : undefined,
    message: exception.message.slice(0, 200),
    stack: exception.stack?.split('\n').slice(1, 6).join('\n'),
  };
}
