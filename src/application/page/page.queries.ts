import { JsonText } from '../shared/json-text';
import { ListSlice, ListRequest } from '../shared/pagination';
import { PageListItemView, UtmParametersView } from './page.view';

export abstract class PageQueries {
  /** The group's pages, newest first; the caller has checked the group is the tenant's and live. */
  abstract listByGroup(tenantId: string, pageGroupId: string, page: ListRequest): Promise<ListSlice<PageListItemView>>;
  /**
   * The distinct UTM values recorded for the group (empty arrays when none), byte-order sorted, as
   * JSON; null unless the group is the tenant's and live.
   */
  abstract utmParameters(tenantId: string, pageGroupId: string): Promise<JsonText<UtmParametersView> | null>;
}
