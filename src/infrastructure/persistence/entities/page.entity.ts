import { defineEntity, p } from '@mikro-orm/postgresql';
import { PageGroupRow } from './page-group.entity';
import { TemplateRow } from './template.entity';
import { TenantRow } from './tenant.entity';

export class PageRow {
  id!: string;
  tenant!: TenantRow;
  pageGroup!: PageGroupRow;
  pageTemplate: TemplateRow | null = null;
  supplementaryContext: string | null = null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const PageEntity = defineEntity({
  class: PageRow,
  tableName: 'pages',
  indexes: [{ name: 'pages_group_id_idx', properties: ['pageGroup', 'id'] }],
  checks: [
    {
      name: 'pages_supplementary_context_check',
      expression: '(char_length(supplementary_context) >= 1) AND (char_length(supplementary_context) <= 10000)',
    },
  ],
  properties: {
    id: p.text().primary().collation('C'),
    tenant: () => p.manyToOne(TenantRow).updateRule('no action').deleteRule('no action').collation('C'),
    pageGroup: () => p.manyToOne(PageGroupRow).updateRule('no action').deleteRule('no action').collation('C'),
    pageTemplate: () => p.manyToOne(TemplateRow).updateRule('no action').deleteRule('no action').nullable().collation('C'),
    supplementaryContext: p.text().nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});
