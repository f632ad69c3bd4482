import { PageGroup } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group-repository.port';
import { PageGroupQueries } from './page-group-queries.port';
import { foundOrFail } from '../shared/found-or-fail';

/** The tenant's live page group, or NotFoundError (malformed, foreign and soft-deleted alike). */
export async function activeGroupOrFail(groups: PageGroupRepository, tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PageGroup> {
  return foundOrFail('page group', 'page', id, () => groups.findActiveById(tenantId, id, options));
}

/** Throws NotFoundError unless the tenant has this live group; reads nothing else (for reads). */
export async function assertActiveGroup(groups: PageGroupQueries, tenantId: string, id: string): Promise<void> {
  await foundOrFail('page group', 'page', id, () => groups.isActive(tenantId, id));
}
