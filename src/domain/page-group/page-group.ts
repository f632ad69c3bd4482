import { AggregateRoot, StateOf, restored } from '../shared/aggregate-root';
import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';
import { movedForward } from '../shared/clock.port';

export const PAGE_GROUP_STATUSES = ['draft', 'published', 'archived'] as const;
export type PageGroupStatus = (typeof PAGE_GROUP_STATUSES)[number];
export const PAGE_GROUP_NAME_MAX = 200;

export function isPageGroupStatus(value: unknown): value is PageGroupStatus {
  return PAGE_GROUP_STATUSES.includes(value as PageGroupStatus);
}

/** Element of `actions`, `footerLinks` and `scripts`: an object whose shape the platform owns. */
export type PlatformObject = Record<string, unknown>;

export interface NewPageGroup {
  tenantId: string;
  name: string;
  title?: string | null;
  brandId?: string | null;
  pageTemplateId?: string | null;
  headerActionId?: string | null;
  pageContext?: string | null;
  status?: PageGroupStatus;
  actions?: PlatformObject[];
  footerLinks?: PlatformObject[];
  scripts?: PlatformObject[];
}

/**
 * A collection of pages with shared configuration, set up by the platform (the API only reads
 * it). `pagesCount` is kept by the database, incremented in the transaction that adds a page, so
 * it stays exact under concurrency; the model never writes it. It records no events: the event
 * catalogue has none about groups (decisions.md 94).
 */
export class PageGroup extends AggregateRoot<StateOf<PageGroup>> {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly brandId: string | null,
    readonly name: string,
    readonly title: string | null,
    readonly pageContext: string | null,
    readonly pageTemplateId: string | null,
    readonly headerActionId: string | null,
    readonly status: PageGroupStatus,
    readonly pagesCount: number,
    readonly actions: PlatformObject[],
    readonly footerLinks: PlatformObject[],
    readonly scripts: PlatformObject[],
    readonly createdAt: Date,
    readonly updatedAt: Date,
    readonly deletedAt: Date | null,
  ) {
    super();
  }

  /** A stored group, as the repository read it. */
  static restore(state: StateOf<PageGroup>): PageGroup {
    return restored(PageGroup.prototype, state);
  }


  static create(input: NewPageGroup, now: Date): PageGroup {
    if (input.name.length < 1 || input.name.length > PAGE_GROUP_NAME_MAX) {
      throw new InvalidValueError('name', `must be 1 to ${PAGE_GROUP_NAME_MAX} characters`);
    }
    const status = input.status ?? 'draft';
    PageGroup.checkStatus(status);
    for (const field of ['actions', 'footerLinks', 'scripts'] as const) {
      const value = input[field] ?? [];
      if (!Array.isArray(value) || value.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) {
        throw new InvalidValueError(field, 'must be an array of objects');
      }
    }
    return new PageGroup(
      newTypeId('page', now.getTime()),
      input.tenantId,
      input.brandId ?? null,
      input.name,
      input.title ?? null,
      input.pageContext ?? null,
      input.pageTemplateId ?? null,
      input.headerActionId ?? null,
      status,
      0,
      input.actions ?? [],
      input.footerLinks ?? [],
      input.scripts ?? [],
      now,
      now,
      null,
    );
  }

  isDeleted(): boolean {
    return this.deletedAt !== null;
  }

  setStatus(status: PageGroupStatus, now: Date): void {
    PageGroup.checkStatus(status);
    this.change({ status, updatedAt: movedForward(this.updatedAt, now) });
  }

  /** Soft delete: the group and its pages disappear from the API; the rows stay. */
  softDelete(now: Date): void {
    if (this.deletedAt) return;
    this.change({ deletedAt: now, updatedAt: movedForward(this.updatedAt, now) });
  }

  private static checkStatus(status: unknown): void {
    if (!isPageGroupStatus(status)) throw new InvalidValueError('status', `must be one of: ${PAGE_GROUP_STATUSES.join(', ')}`);
  }
}
