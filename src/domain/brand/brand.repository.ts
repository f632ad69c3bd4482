import { Brand } from './brand';

export abstract class BrandRepository {
  /** Null when the tenant has no brand with this id (another tenant's brand included). */
  abstract findById(tenantId: string, id: string): Promise<Brand | null>;
  /** Inserts or updates the brand in one transaction. */
  abstract save(brand: Brand): Promise<void>;
}
