import { DomainEvent, domainEvent } from '../shared/domain-event';
import { BrandState } from './brand.state';
import { BrandView, toBrandView } from './brand.view';

/** `brand.created` and `brand.updated`: their data is the Brand exactly as the API answers it. */
export function brandEvent(type: 'brand.created' | 'brand.updated', brand: BrandState): DomainEvent<BrandView> {
  const at = type === 'brand.created' ? brand.createdAt : brand.updatedAt;
  return domainEvent(type, brand.tenantId, at, toBrandView(brand));
}
