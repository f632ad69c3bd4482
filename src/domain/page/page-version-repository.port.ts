import { Page } from './page';
import { PageVersion } from './page-version';

export abstract class PageVersionRepository {
  /** The highest version number of the page; 0 when it has none. */
  abstract latestNumber(tenantId: string, pageId: string): Promise<number>;
  /**
   * Writes the version, its events and the page's new content and `updatedAt`, in the current
   * unit of work (or a transaction of their own). Throws ConcurrentChangeError when another
   * version took the same number first.
   */
  abstract add(page: Page, version: PageVersion): Promise<void>;
}
