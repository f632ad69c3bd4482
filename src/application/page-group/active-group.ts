import { PageGroup } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group.repository';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';

/** The tenant's live page group, or NotFoundError (malformed, foreign and soft-deleted alike). */
export async function activeGroupOrFail(groups: PageGroupRepository, tenantId: string, id: string): Promise<PageGroup> {
  const group = isTypeId(id, 'page') ? await groups.findActiveById(tenantId, id) : null;
  if (!group) throw new NotFoundError('page group', id);
  return group;
}
