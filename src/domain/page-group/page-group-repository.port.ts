import { PageGroup } from './page-group';

export abstract class PageGroupRepository {
  /** Null when the tenant has no such group, or it is soft-deleted; `forUpdate` locks it to the end of the unit of work. */
  abstract findActiveById(tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<PageGroup | null>;
  /**
   * The default page template of the tenant's group, or null as above: what adding a page needs
   * from its group, read without loading the aggregate (a page is added hundreds of times a
   * second, and loading the group cost the API more than writing the page). The defaults never
   * change once the group is made, so an adapter may keep them: a group deleted since may still
   * be answered, and the caller's write must check that the group is live (the page's does).
   */
  abstract findDefaults(tenantId: string, id: string): Promise<{ pageTemplateId: string | null } | null>;
  /** Inserts a group made by PageGroup.create. */
  abstract add(group: PageGroup): Promise<void>;
  /** Updates a loaded group's own fields (never `pagesCount`, which the database keeps). */
  abstract save(group: PageGroup): Promise<void>;
}
