import { PageGroupStatus } from '../../domain/page-group/page-group';
import { JsonText } from '../shared/json-text';
import { ListSlice, ListRequest } from '../shared/pagination';
import { PageGroupView } from './page-group.view';

/** Read side of page groups; soft-deleted groups never appear. */
export abstract class PageGroupQueries {
  /** Each item as its store keeps its JSON (rendered when the group was written). */
  abstract list(tenantId: string, filter: { status?: PageGroupStatus }, page: ListRequest): Promise<ListSlice<JsonText<PageGroupView>>>;
  /** Whether the tenant has this live group: the cheap check of nested reads. */
  abstract isActive(tenantId: string, id: string): Promise<boolean>;
  /** The item of the list, as its JSON; null when the tenant has no such group or it is soft-deleted. */
  abstract findActive(tenantId: string, id: string): Promise<JsonText<PageGroupView> | null>;
}
