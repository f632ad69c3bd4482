import { InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';
import type { PageState } from './page';

export const UTM_KINDS = ['campaign', 'content', 'medium', 'source', 'term'] as const;
export type UtmKind = (typeof UTM_KINDS)[number];
export type UtmValues = Partial<Record<UtmKind, string>>;
export const UTM_VALUE_MAX = 500;

/** A visit to a page, recorded by the platform with the UTM values it came with. */
export class PageSession {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly pageId: string,
    readonly pageGroupId: string,
    readonly utm: UtmValues,
    readonly createdAt: Date,
  ) {}

  static record(page: Pick<PageState, 'id' | 'tenantId' | 'pageGroupId'>, utm: UtmValues, now: Date): PageSession {
    const clean: UtmValues = {};
    for (const kind of UTM_KINDS) {
      const value = utm[kind];
      if (value === undefined) continue;
      if (value.length < 1 || value.length > UTM_VALUE_MAX) throw new InvalidValueError(`utm_${kind}`, `must be 1 to ${UTM_VALUE_MAX} characters`);
      clean[kind] = value;
    }
    return new PageSession(newTypeId('pagesession', now.getTime()), page.tenantId, page.id, page.pageGroupId, clean, now);
  }
}
