import { JsonText } from '../shared/json-text';
import { ListSlice, ListRequest } from '../shared/pagination';
import { StatsRange } from '../../domain/page/stats-range';
import { UtmKind } from '../../domain/page/page-session';
import { PageListItemView, PageVersionView, PageView, UtmParametersView } from './page.view';

export abstract class PageQueries {
  /** The group's pages, newest first; the caller has checked the group is the tenant's and live. */
  abstract listByGroup(tenantId: string, pageGroupId: string, page: ListRequest): Promise<ListSlice<PageListItemView>>;
  /**
   * The distinct UTM values recorded for the group (empty arrays when none), byte-order sorted, as
   * JSON; null unless the group is the tenant's and live.
   */
  abstract utmParameters(tenantId: string, pageGroupId: string): Promise<JsonText<UtmParametersView> | null>;
  /** The page with its counts; null unless it is the tenant's and in this group (the caller checked the group). */
  abstract findInGroup(tenantId: string, pageGroupId: string, pageId: string): Promise<PageView | null>;
  /** Whether the tenant has this page in this group. */
  abstract isInGroup(tenantId: string, pageGroupId: string, pageId: string): Promise<boolean>;
  /** The page's versions, newest (highest number) first; the cursor is a version number. */
  abstract listVersions(tenantId: string, pageId: string, page: ListRequest): Promise<ListSlice<PageVersionView>>;
  /**
   * Sessions of the page per bucket of the range (only buckets that have any), and the top
   * `top` values of each UTM kind over the range with their sessions, most first. Each count is
   * exact; for a kind with very many values the list may be chosen among a bounded number of
   * them, and `utmApproximate` names the kinds whose list may then lack a value. Nothing for
   * another tenant's page.
   */
  abstract stats(
    tenantId: string,
    pageId: string,
    range: StatsRange,
    top: number,
  ): Promise<{ buckets: { start: Date; sessions: number }[]; utm: { kind: UtmKind; value: string; sessions: number }[]; utmApproximate: UtmKind[] }>;
}
