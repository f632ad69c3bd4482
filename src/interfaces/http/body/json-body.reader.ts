import { isUtf8 } from 'node:buffer';
import { json, type Response } from 'express';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';
import { nestsDeeperThan } from './json-nesting';

// decisions.md, Errors: bodies are JSON (`application/json` or `application/merge-patch+json`,
// any charset) of at most 1 MiB, nested at most 16 levels. The body is read only once the request
// is authenticated and within its budget (ApiKeyGuard): a request refused for its key or its
// address costs no body read and no parse (issue 17), and an unauthenticated caller always gets
// the same 401 and learns nothing about the body rules first.
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const MAX_BODY_DEPTH = 16;
const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

/** A body refused by a check of the raw bytes, carrying the answer to give. */
class RawBodyRefused extends Error {
  constructor(readonly answer: ApiError) {
    super(answer.message);
  }
}

const parse = json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: JSON_TYPES,
  // Runs on the raw bytes before JSON.parse. body-parser would turn invalid UTF-8 into U+FFFD
  // silently: refuse it instead; and refuse deep nesting before anything recurses over it.
  verify: (_req, _res, buffer) => {
    if (!isUtf8(buffer)) throw new RawBodyRefused(ApiError.validation('body', 'must be valid UTF-8'));
    if (nestsDeeperThan(buffer, MAX_BODY_DEPTH)) throw new RawBodyRefused(ApiError.validation('body', `is nested deeper than ${MAX_BODY_DEPTH} levels`));
  },
});

/** Reads and parses the request's JSON body into `req.body`; throws the ApiError to answer. */
export function readJsonBody(req: ApiRequest, res: Response): Promise<void> {
  if (!hasBody(req)) return Promise.resolve();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!JSON_TYPES.includes(type)) {
    // Drain what was sent so the connection stays usable; nothing of it is kept.
    req.resume();
    return Promise.reject(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (Content-Type: application/json).'));
  }
  return new Promise((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(toBodyError(error)) : resolve())));
}

function hasBody(req: ApiRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function toBodyError(error: unknown): ApiError {
  if (error instanceof RawBodyRefused) return error.answer;
  const type = (error as { type?: string }).type;
  switch (type) {
    case 'entity.too.large':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${BODY_LIMIT_BYTES} bytes.`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON in UTF-8.');
    default:
      return ApiError.validation('body', 'must be valid JSON');
  }
}
