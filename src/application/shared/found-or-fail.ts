import { NotFoundError } from '../../domain/shared/domain-error';
import { IdPrefix, isTypeId } from '../../domain/shared/type-id';

/**
 * What `find` returns for a well-formed id of `prefix`; NotFoundError naming `resource` when the
 * id is malformed or nothing (or false) is found. Malformed, foreign and deleted ids all answer the
 * same 404, so a caller learns nothing about other tenants' ids (spec, Errors).
 */
export async function foundOrFail<T>(resource: string, prefix: IdPrefix, id: string, find: (id: string) => Promise<T | null | undefined | false>): Promise<T> {
  const found = isTypeId(id, prefix) ? await find(id) : null;
  if (found === null || found === undefined || found === false) throw new NotFoundError(resource, id);
  return found;
}
