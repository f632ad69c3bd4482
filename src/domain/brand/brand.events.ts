import { DomainEvent } from '../shared/domain-event';
import { newTypeId } from '../shared/type-id';
import { BrandState } from './brand.state';
import { BrandView, toBrandView } from './brand.view';

/** `brand.created` and `brand.updated`: their data is the Brand exactly as the API answers it. */
export function brandEvent(type: 'brand.created' | 'brand.updated', brand: BrandState): DomainEvent<BrandView> {
  const at = type === 'brand.created' ? brand.createdAt : brand.updatedAt;
  return { id: newTypeId('evt', at.getTime()), type, tenantId: brand.tenantId, occurredAt: at, data: toBrandView(brand) };
}
