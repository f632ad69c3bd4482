import { AggregateRoot } from '../shared/aggregate-root';
import { newTypeId } from '../shared/type-id';
import { pageVersionCreated } from './page.events';

/** What a version needs of its page. */
export interface PageRef {
  id: string;
  tenantId: string;
  pageGroupId: string;
}

/**
 * One version of a page, numbered from 1 per page. The number is the previous one plus one; the
 * database's unique (page, number) is what makes two racing versions impossible.
 */
export class PageVersion extends AggregateRoot {
  private constructor(
    public id: string,
    public tenantId: string,
    public pageId: string,
    public pageGroupId: string,
    public number: number,
    public createdAt: Date,
  ) {
    super();
  }

  /** Version 1, made with the page itself. */
  static first(page: PageRef, now: Date): PageVersion {
    return PageVersion.make(page, 1, now);
  }

  /** The version after `latestNumber` (the highest number the page has now). */
  static next(page: PageRef, latestNumber: number, now: Date): PageVersion {
    return PageVersion.make(page, latestNumber + 1, now);
  }

  private static make(page: PageRef, number: number, now: Date): PageVersion {
    const version = new PageVersion(newTypeId('pagever', now.getTime()), page.tenantId, page.id, page.pageGroupId, number, now);
    version.record(
      pageVersionCreated({ tenantId: page.tenantId, pageVersionId: version.id, pageId: page.id, pageGroupId: page.pageGroupId, version: number, at: now }),
    );
    return version;
  }
}
