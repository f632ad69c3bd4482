import { defineEntity, p } from '@mikro-orm/postgresql';
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
    {
      name: 'page_versions_supplementary_context_check',
      expression: '(char_length(supplementary_context) >= 1) AND (char_length(supplementary_context) <= 10000)',
    },
  ],
  properties: {
    id: p.text().primary().collation('C'),
    tenant: () => p.manyToOne(TenantRow).updateRule('no action').deleteRule('no action').collation('C'),
    page: () => p.manyToOne(PageRow).updateRule('no action').deleteRule('no action').collation('C'),
    pageGroup: () => p.manyToOne(PageGroupRow).updateRule('no action').deleteRule('no action').collation('C'),
    number: p.integer(),
    createdAt: p.datetime().length(3),
    pageTemplate: () => p.manyToOne(TemplateRow).updateRule('no action').deleteRule('no action').nullable().collation('C'),
    supplementaryContext: p.text().nullable(),
  },
});
