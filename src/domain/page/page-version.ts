import { AggregateRoot, StateOf } from '../shared/aggregate-root';
import { newTypeId } from '../shared/type-id';
import { pageVersionCreated } from './page.events';

/** What a version takes from its page: which page, and the content it has when the version is made. */
export interface PageRef {
  id: string;
  tenantId: string;
  pageGroupId: string;
  pageTemplateId: string | null;
  supplementaryContext: string | null;
}

/**
 * One version of a page, numbered from 1 per page, with the content the page had when it was made
 * (its template and supplementary context). The number is the previous one plus one; the
 * database's unique (page, number) is what makes two racing versions impossible.
 */
export class PageVersion extends AggregateRoot<StateOf<PageVersion>> {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly pageId: string,
    readonly pageGroupId: string,
    readonly number: number,
    readonly pageTemplateId: string | null,
    readonly supplementaryContext: string | null,
    readonly createdAt: Date,
  ) {
    super();
  }

  /** Version 1, made with the page itself. */
  static first(page: PageRef, now: Date): PageVersion {
    return PageVersion.make(page, 1, now);
  }

  /** The version after `latestNumber` (the highest number the page has now), with the page's content now. */
  static next(page: PageRef, latestNumber: number, now: Date): PageVersion {
    return PageVersion.make(page, latestNumber + 1, now);
  }

  private static make(page: PageRef, number: number, now: Date): PageVersion {
    const id = newTypeId('pagever', now.getTime());
    const version = new PageVersion(id, page.tenantId, page.id, page.pageGroupId, number, page.pageTemplateId, page.supplementaryContext, now);
    version.record(
      pageVersionCreated({ tenantId: page.tenantId, pageVersionId: version.id, pageId: page.id, pageGroupId: page.pageGroupId, version: number, at: now }),
    );
    return version;
  }
}
