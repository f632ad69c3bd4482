import { Page } from '../../domain/page/page';

/** Page (list item, in a page group). */
export interface PageListItemView {
  pageId: string;
  pageGroupId: string;
  tenantId: string;
  createdAt: string;
  updatedAt: string;
}

/** Page (create response); `supplementaryContext` is nullable, so null when unset. */
export interface PageCreatedView {
  pageId: string;
  pageGroupId: string;
  pageTemplateId: string | null;
  tenantId: string;
  supplementaryContext: string | null;
  createdAt: string;
}

export function toPageCreatedView(page: Page): PageCreatedView {
  return {
    pageId: page.id,
    pageGroupId: page.pageGroupId,
    pageTemplateId: page.pageTemplateId,
    tenantId: page.tenantId,
    supplementaryContext: page.supplementaryContext,
    createdAt: page.createdAt.toISOString(),
  };
}

/** UTM parameters: the distinct values of the group's sessions, each array sorted. */
export interface UtmParametersView {
  utm_campaigns: string[];
  utm_contents: string[];
  utm_mediums: string[];
  utm_sources: string[];
  utm_terms: string[];
}
