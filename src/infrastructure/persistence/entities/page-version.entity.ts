import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
import { PageGroupRow } from './page-group.entity';
import { PageRow } from './page.entity';
import { TemplateRow } from './template.entity';
import { TenantRow } from './tenant.entity';

export class PageVersionRow {
  id!: string;
  tenant!: TenantRow;
  page!: PageRow;
  pageGroup!: PageGroupRow;
  number!: number;
  createdAt!: Date;
  pageTemplate: TemplateRow | null = null;
  supplementaryContext: string | null = null;
}

export const PageVersionEntity = defineEntity({
  class: PageVersionRow,
  tableName: 'page_versions',
  uniques: [
    { name: 'page_versions_page_number_key', properties: ['page', 'number'] },
  ],
  checks: [
    { name: 'page_versions_number_check', expression: 'number >= 1' },
    lengthCheck('page_versions', 'supplementary_context', 1, 10000),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantRow),
    page: () => reference(PageRow),
    pageGroup: () => reference(PageGroupRow),
    number: p.integer(),
    createdAt: instant(),
    pageTemplate: () => reference(TemplateRow).nullable(),
    supplementaryContext: p.text().nullable(),
  },
});
