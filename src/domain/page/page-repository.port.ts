import { Page } from './page';
import { PageVersion } from './page-version';

export abstract class PageRepository {
  /** Null when the tenant has no page with this id; `forUpdate` locks it to the end of the unit of work. */
  abstract findById(tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<Page | null>;
  /**
   * Writes a new page, its first version, their events and the group's `pagesCount + 1` in one
   * transaction. Throws NotFoundError if the group was deleted meanwhile (nothing is written).
   */
  abstract add(page: Page, firstVersion: PageVersion): Promise<void>;
}
