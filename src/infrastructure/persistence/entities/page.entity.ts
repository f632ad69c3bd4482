import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant, lengthCheck } from './columns';
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
    lengthCheck('pages', 'supplementary_context', 1, 10000),
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantRow),
    pageGroup: () => reference(PageGroupRow),
    pageTemplate: () => reference(TemplateRow).nullable(),
    supplementaryContext: p.text().nullable(),
    createdAt: instant(),
    updatedAt: instant(),
  },
});
