import { LIST_LIMIT_DEFAULT, ListRequest } from '../../../application/shared/pagination';
import { CursorKey, decodeCursor } from './cursor';
import { ListQueryDto } from './list-query.dto';

/**
 * A validated list query as the core's page request; `list` names the list the cursor is for,
 * `key` what its last id must be (a TypeID of the list's prefix, or a row number).
 */
export function toListRequest(list: string, key: CursorKey, query: ListQueryDto): ListRequest {
  const limit = query.limit === undefined ? LIST_LIMIT_DEFAULT : Number(query.limit);
  return query.cursor === undefined ? { limit } : { limit, after: decodeCursor(list, query.cursor, key) };
}
