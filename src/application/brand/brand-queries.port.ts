import { JsonText } from '../shared/json-text';
import { ListSlice, ListRequest } from '../shared/pagination';
import { BrandView } from '../../domain/brand/brand.view';

/**
 * Read side of brands: answers with each brand's response JSON as its store keeps it (rendered
 * when the brand was written), with no aggregate hydration and no serialisation per request.
 */
export abstract class BrandQueries {
  abstract list(tenantId: string, page: ListRequest): Promise<ListSlice<JsonText<BrandView>>>;
  /** Null when the tenant has no brand with this id. */
  abstract findById(tenantId: string, brandId: string): Promise<JsonText<BrandView> | null>;
}
