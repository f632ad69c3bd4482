import { PageGroup } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group.repository';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { PageGroupQueries } from './page-group.queries';

/** The tenant's live page group, or NotFoundError (malformed, foreign and soft-deleted alike). */
export async function activeGroupOrFail(groups: PageGroupRepository, tenantId: string, id: string): Promise<PageGroup> {
  const group = isTypeId(id, 'page') ? await groups.findActiveById(tenantId, id) : null;
  if (!group) throw new NotFoundError('page group', id);
  return group;
}

/** Throws NotFoundError unless the tenant has this live group; reads nothing else (for reads). */
export async function assertActiveGroup(groups: PageGroupQueries, tenantId: string, id: string): Promise<void> {
  if (!(isTypeId(id, 'page') && (await groups.isActive(tenantId, id)))) throw new NotFoundError('page group', id);
}
