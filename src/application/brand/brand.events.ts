import { DomainEvent } from '../../domain/shared/domain-event';
import { newTypeId } from '../../domain/shared/type-id';
import { BrandView } from './brand.view';

/** `brand.created` and `brand.updated`: their data is the Brand exactly as the API answered it. */
export function brandEvent(type: 'brand.created' | 'brand.updated', brand: BrandView, at: Date): DomainEvent<BrandView> {
  return { id: newTypeId('evt', at.getTime()), type, tenantId: brand.tenantId, occurredAt: at, data: brand };
}
