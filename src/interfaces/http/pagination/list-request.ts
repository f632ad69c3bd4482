import { LIST_LIMIT_DEFAULT, ListRequest } from '../../../application/shared/pagination';
import { decodeCursor } from './cursor';
import { ListQueryDto } from './list-query.dto';

/** A validated list query as the core's page request; `list` names the list the cursor is for. */
export function toListRequest(list: string, query: ListQueryDto): ListRequest {
  const limit = query.limit === undefined ? LIST_LIMIT_DEFAULT : Number(query.limit);
  return query.cursor === undefined ? { limit } : { limit, after: decodeCursor(list, query.cursor) };
}
