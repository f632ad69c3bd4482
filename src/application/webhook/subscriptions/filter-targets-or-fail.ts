import { NotFoundError } from '../../../domain/shared/domain-error';
import { DeliveryFilter, filterIds } from '../../../domain/webhook/delivery-filter';
import { FilterTargets } from './filter-targets.port';

/**
 * Every id of a filter names one of the tenant's page groups or brands, or the first that does not
 * is a 404 naming its field: another tenant's id looks like one that does not exist.
 */
export async function filterTargetsOrFail(targets: FilterTargets, tenantId: string, filter: DeliveryFilter | null): Promise<void> {
  const { pageGroupIds, brandIds } = filterIds(filter);
  if (pageGroupIds.length > 0) {
    const found = await targets.pageGroupsOf(tenantId, pageGroupIds);
    const missing = pageGroupIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw new NotFoundError('page group', pageGroupIds[missing], `filter.pageGroupIds[${missing}]`);
  }
  if (brandIds.length > 0) {
    const found = await targets.brandsOf(tenantId, brandIds);
    const missing = brandIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw new NotFoundError('brand', brandIds[missing], `filter.brandIds[${missing}]`);
  }
}
