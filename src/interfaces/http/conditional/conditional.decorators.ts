import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from '../errors/error.response';

const ETAG_HEADER = {
  ETag: { description: 'Strong entity tag of this answer (a digest of its bytes): send it back in If-None-Match or If-Match.', schema: { type: 'string' } },
};

/** An optional request header of a conditional request, as OpenAPI shows it. */
const conditionHeader = (name: 'If-None-Match' | 'If-Match', description: string) => ApiHeader({ name, required: false, description, schema: { type: 'string' } });

/** A GET of one resource, as OpenAPI shows it: ETag, and 304 for an If-None-Match that names it (the handler answers through @Tagged()). */
export function ConditionalRead() {
  return applyDecorators(
    conditionHeader('If-None-Match', 'ETag(s) of a copy you hold (or *): 304 with no body when the resource still has one of them. A 304 costs half a request of the rate budget: every second one is taken back, shown in RateLimit-Remaining.'),
    ApiResponse({ status: 304, description: 'Not modified: your copy is current. No body.', headers: ETAG_HEADER }),
  );
}

/** A PATCH or DELETE, as OpenAPI shows it: If-Match makes it conditional (412 when stale); a PATCH answers with the new ETag through @Tagged(). */
export function ConditionalWrite() {
  return applyDecorators(
    conditionHeader('If-Match', 'The ETag your change is based on (or *): 412 PRECONDITION_FAILED, writing nothing, when the resource has changed since.'),
    ApiResponse({ status: 412, description: 'PRECONDITION_FAILED: the resource changed since the ETag in If-Match; `details.currentETag` is its ETag now.', type: ErrorResponse }),
  );
}
