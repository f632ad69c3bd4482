import { Page, PageRequest } from '../shared/pagination';
import { BrandView } from './brand.view';

/** Read side of brands: answers straight in the response shape, with no aggregate hydration. */
export abstract class BrandQueries {
  abstract list(tenantId: string, page: PageRequest): Promise<Page<BrandView>>;
  /** Null when the tenant has no brand with this id. */
  abstract findById(tenantId: string, brandId: string): Promise<BrandView | null>;
}
