import { PageGroup } from './page-group';

export abstract class PageGroupRepository {
  /** Null when the tenant has no such group, or it is soft-deleted. */
  abstract findActiveById(tenantId: string, id: string): Promise<PageGroup | null>;
  /** Inserts or updates the group's own fields (never `pagesCount`, which the database keeps). */
  abstract save(group: PageGroup): Promise<void>;
}
