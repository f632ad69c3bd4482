import { Brand } from './brand';

export abstract class BrandRepository {
  /**
   * Null when the tenant has no brand with this id (another tenant's brand included). With
   * `forUpdate`, the brand stays locked until the surrounding unit of work ends, so that a
   * read-modify-write cannot lose a change made at the same time.
   */
  abstract findById(tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<Brand | null>;
  /**
   * As findById without a lock, except that the brand may be the copy this process last read or
   * wrote, which may be older than the row: only for `save` with `ifUnchanged`, which refuses to write a
   * brand whose row changed since (and then a fresh read is needed).
   */
  abstract findLatestKnown(tenantId: string, id: string): Promise<Brand | null>;
  /** Inserts a brand just created (Brand.create) and the events it recorded, atomically. */
  abstract add(brand: Brand): Promise<void>;
  /**
   * Writes the changes of a brand read with findById and the events it recorded, atomically.
   * With `ifUnchanged`, for a brand read without a lock: writes only if no other write reached
   * the brand since this read (an optimistic write, expecting the version read). Answers whether
   * it wrote; when it did not, nothing is written, its events included.
   */
  abstract save(brand: Brand, options?: { ifUnchanged?: boolean }): Promise<boolean>;
}
