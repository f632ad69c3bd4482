import { ListSlice, ListRequest } from '../shared/pagination';
import { TemplateView } from './template.view';

export const TEMPLATE_TYPES = ['system', 'custom'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** Read side of templates: the system templates and the tenant's own. */
export abstract class TemplateQueries {
  /** Newest first; `type` keeps only system or only the tenant's (custom) ones. Empty page when none. */
  abstract list(tenantId: string, filter: { type?: TemplateType }, page: ListRequest): Promise<ListSlice<TemplateView>>;
}
