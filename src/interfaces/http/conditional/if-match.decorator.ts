import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Precondition } from '../../../application/shared/precondition';
import type { ApiRequest } from '../api-request';
import { ApiError } from '../errors/api-error';
import { matchHolds, parseTagCondition, partMatchHolds, TagPart, taggedAs } from './entity-tag';

/**
 * The request's If-Match as a precondition on the resource's current answer (its view as JSON),
 * for the use case to check under the write's lock: 412 PRECONDITION_FAILED naming the current
 * ETag when it does not hold. Undefined without the header. With a part (TagPart), only that part
 * of the answer is compared.
 */
export const IfMatch = createParamDecorator((part: TagPart | undefined, context: ExecutionContext): Precondition<object> | undefined => {
  const condition = parseTagCondition(context.switchToHttp().getRequest<ApiRequest>().headers['if-match'], 'If-Match');
  if (condition === null) return undefined;
  return (current) => {
    const tag = taggedAs(JSON.stringify(current), current, part);
    if (!(part ? partMatchHolds(condition, tag) : matchHolds(condition, tag))) throw ApiError.preconditionFailed(tag);
  };
});
