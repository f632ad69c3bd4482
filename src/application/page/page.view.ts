import { PageState } from '../../domain/page/page';
import { PageVersion } from '../../domain/page/page-version';
import { StateOf } from '../../domain/shared/aggregate-root';
import type { UtmKind } from '../../domain/page/page-session';

/** Page (list item, in a page group). */
export interface PageListItemView {
  pageId: string;
  pageGroupId: string;
  tenantId: string;
  createdAt: string;
  updatedAt: string;
}

export function toPageListItemView(page: Pick<PageState, 'id' | 'pageGroupId' | 'tenantId' | 'createdAt' | 'updatedAt'>): PageListItemView {
  return { pageId: page.id, pageGroupId: page.pageGroupId, tenantId: page.tenantId, createdAt: page.createdAt.toISOString(), updatedAt: page.updatedAt.toISOString() };
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

export function toPageCreatedView(page: PageState): PageCreatedView {
  return {
    pageId: page.id,
    pageGroupId: page.pageGroupId,
    pageTemplateId: page.pageTemplateId,
    tenantId: page.tenantId,
    supplementaryContext: page.supplementaryContext,
    createdAt: page.createdAt.toISOString(),
  };
}

/** Page version: the content a page had from the moment it was made. */
export interface PageVersionView {
  pageVersionId: string;
  number: number;
  pageTemplateId: string | null;
  supplementaryContext: string | null;
  createdAt: string;
}

export function toPageVersionView(version: Pick<StateOf<PageVersion>, 'id' | 'number' | 'pageTemplateId' | 'supplementaryContext' | 'createdAt'>): PageVersionView {
  return {
    pageVersionId: version.id,
    number: version.number,
    pageTemplateId: version.pageTemplateId,
    supplementaryContext: version.supplementaryContext,
    createdAt: version.createdAt.toISOString(),
  };
}

/** Page (one page): the list item's fields, its current content, and counts. */
export interface PageView extends PageListItemView {
  pageTemplateId: string | null;
  supplementaryContext: string | null;
  currentVersion: number;
  versionsCount: number;
  sessionsCount: number;
}

/** What a page's view counts besides the page itself. */
export interface PageCounts {
  currentVersion: number;
  versionsCount: number;
  sessionsCount: number;
}

export function toPageView(page: PageState, counts: PageCounts): PageView {
  return {
    ...toPageListItemView(page),
    pageTemplateId: page.pageTemplateId,
    supplementaryContext: page.supplementaryContext,
    currentVersion: counts.currentVersion,
    versionsCount: counts.versionsCount,
    sessionsCount: counts.sessionsCount,
  };
}

/** One value of a UTM kind and the sessions that came with it. */
export interface UtmValueCount {
  value: string;
  sessions: number;
}

/**
 * A page's statistics over a range of whole UTC buckets: sessions per bucket (every bucket, zero
 * included), their total, and the PAGE_STATS_TOP_VALUES values of each UTM kind that came with
 * the most sessions in the range (ties in code point order).
 */
export interface PageStatsView {
  pageId: string;
  interval: 'day' | 'hour';
  from: string;
  to: string;
  total: number;
  series: { start: string; sessions: number }[];
  utm: Record<keyof UtmParametersView, UtmValueCount[]>;
  /** The keys of `utm` whose list may lack a value (chosen among a bounded number of a kind's many values); empty when every list is exact. */
  utmApproximate: (keyof UtmParametersView)[];
}

export const PAGE_STATS_TOP_VALUES = 10;
/** A kind's top values are chosen among this many of its values, those with the most sessions overall (docs/decisions.md 86). */
export const UTM_TOP_CANDIDATES = 1_000;

/**
 * UTM parameters: the distinct values of the group's sessions, each array sorted by bytes. At
 * most UTM_VALUES_PER_KIND per kind, the most recently seen (decisions.md 64).
 */
export interface UtmParametersView {
  utm_campaigns: string[];
  utm_contents: string[];
  utm_mediums: string[];
  utm_sources: string[];
  utm_terms: string[];
}

/** The answer's bound per kind: 5 × 1,000 values of at most 500 characters is at most ~2.5 MB. */
export const UTM_VALUES_PER_KIND = 1000;

/** The view of a group's values, given in any order. */
export function toUtmParametersView(values: readonly { kind: UtmKind; value: string }[]): UtmParametersView {
  const view: UtmParametersView = { utm_campaigns: [], utm_contents: [], utm_mediums: [], utm_sources: [], utm_terms: [] };
  const byKind: Record<UtmKind, string[]> = { campaign: view.utm_campaigns, content: view.utm_contents, medium: view.utm_mediums, source: view.utm_sources, term: view.utm_terms };
  for (const { kind, value } of values) byKind[kind].push(value);
  for (const list of Object.values(byKind)) list.sort(byCodePoint);
  return view;
}

/**
 * Code point order, which is the byte order of UTF-8 (PostgreSQL's COLLATE "C"); JavaScript's
 * default sort compares UTF-16 units, which puts U+E000..U+FFFF after astral characters.
 */
export function byCodePoint(a: string, b: string): number {
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}
