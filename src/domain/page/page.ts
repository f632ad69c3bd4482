import { AggregateRoot, StateOf, restored } from '../shared/aggregate-root';
import { movedForward } from '../shared/clock.port';
import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';
import { PageVersion } from './page-version';

/** What a new version changes; an absent field carries over from the current version. */
export interface PageContentChanges {
  pageTemplateId?: string | null;
  supplementaryContext?: string | null;
}

export const SUPPLEMENTARY_CONTEXT_MAX = 10000;

/** What a page is made of, as stored. */
export interface PageState {
  readonly id: string;
  readonly tenantId: string;
  readonly pageGroupId: string;
  readonly pageTemplateId: string | null;
  readonly supplementaryContext: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * A page variant in a page group (`pagevar_`). Its versions record the events
 * (`page.version.created`); the page records none of its own.
 */
export class Page extends AggregateRoot<StateOf<Page>> implements PageState {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly pageGroupId: string,
    readonly pageTemplateId: string | null,
    readonly supplementaryContext: string | null,
    readonly createdAt: Date,
    readonly updatedAt: Date,
  ) {
    super();
  }

  /** A stored page, as the repository read it. */
  static restore(state: PageState): Page {
    return restored(Page.prototype, state);
  }


  /** A new page with its version 1 (which records `page.version.created`). */
  static create(
    input: { tenantId: string; pageGroupId: string; pageTemplateId: string | null; supplementaryContext?: string },
    now: Date,
  ): { page: Page; firstVersion: PageVersion } {
    const context = input.supplementaryContext;
    if (context !== undefined) Page.checkContext(context);
    const page = new Page(newTypeId('pagevar', now.getTime()), input.tenantId, input.pageGroupId, input.pageTemplateId, context ?? null, now, now);
    return { page, firstVersion: PageVersion.first(page, now) };
  }

  /**
   * The page's next version after `latestNumber`: the page takes the changed content (the template
   * already checked as visible to the tenant) and the version records it. The page's content is
   * always its current version's.
   */
  newVersion(latestNumber: number, changes: PageContentChanges, now: Date): PageVersion {
    if (changes.supplementaryContext !== undefined && changes.supplementaryContext !== null) Page.checkContext(changes.supplementaryContext);
    this.change({
      pageTemplateId: changes.pageTemplateId === undefined ? this.pageTemplateId : changes.pageTemplateId,
      supplementaryContext: changes.supplementaryContext === undefined ? this.supplementaryContext : changes.supplementaryContext,
      updatedAt: movedForward(this.updatedAt, now),
    });
    return PageVersion.next(this, latestNumber, now);
  }

  private static checkContext(context: string): void {
    if (context.length < 1 || context.length > SUPPLEMENTARY_CONTEXT_MAX) {
      throw new InvalidValueError('supplementaryContext', `must be 1 to ${SUPPLEMENTARY_CONTEXT_MAX} characters`);
    }
  }
}
