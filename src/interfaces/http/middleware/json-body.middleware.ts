import { isUtf8 } from 'node:buffer';
import { json, type NextFunction, type Response } from 'express';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';

// decisions.md, Errors: bodies are JSON (`application/json` or `application/merge-patch+json`,
// any charset) of at most 1 MiB. A body that fails those rules is not answered here: the error is
// kept on the request and raised after authentication, so an unauthenticated caller always gets
// the same 401 and learns nothing about the body rules first.
export const BODY_LIMIT_BYTES = 1024 * 1024;
const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

const parse = json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: JSON_TYPES,
  // body-parser would turn invalid UTF-8 into U+FFFD silently: refuse it instead.
  verify: (_req, _res, buffer) => {
    if (!isUtf8(buffer)) throw new Error('invalid UTF-8');
  },
});

export function jsonBody(req: ApiRequest, res: Response, next: NextFunction): void {
  if (!hasBody(req)) return next();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!JSON_TYPES.includes(type)) {
    req.bodyError = new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (Content-Type: application/json).');
    // Drain what was sent so the connection stays usable; nothing of it is kept.
    req.resume();
    return next();
  }
  parse(req, res, (error?: unknown) => {
    if (error) req.bodyError = toBodyError(error);
    next();
  });
}

function hasBody(req: ApiRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function toBodyError(error: unknown): ApiError {
  const type = (error as { type?: string }).type;
  switch (type) {
    case 'entity.too.large':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${BODY_LIMIT_BYTES} bytes.`);
    case 'entity.verify.failed':
      return ApiError.validation('body', 'must be valid UTF-8');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON in UTF-8.');
    default:
      return ApiError.validation('body', 'must be valid JSON');
  }
}
