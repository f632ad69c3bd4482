import { defineEntity, p } from '@mikro-orm/postgresql';
import { partitionedByDay } from './history-partitions';
import { PageGroupRow } from './page-group.entity';
import { PageRow } from './page.entity';
import { TenantRow } from './tenant.entity';

export class PageSessionRow {
  id!: string;
  tenant!: TenantRow;
  page!: PageRow;
  pageGroup!: PageGroupRow;
  utmSource: string | null = null;
  utmMedium: string | null = null;
  utmCampaign: string | null = null;
  utmTerm: string | null = null;
  utmContent: string | null = null;
  createdAt!: Date;
}

export const PageSessionEntity = defineEntity({
  class: PageSessionRow,
  tableName: 'page_sessions',
  partitionBy: partitionedByDay('page_sessions', 'id', 'pagesession'),
  indexes: [{ name: 'page_sessions_page_id_idx', properties: ['page', 'id'] }],
  properties: {
    id: p.text().primary().collation('C'),
    tenant: () => p.manyToOne(TenantRow).updateRule('no action').deleteRule('no action').collation('C'),
    page: () => p.manyToOne(PageRow).updateRule('no action').deleteRule('no action').collation('C'),
    pageGroup: () => p.manyToOne(PageGroupRow).updateRule('no action').deleteRule('no action').collation('C'),
    utmSource: p.text().nullable(),
    utmMedium: p.text().nullable(),
    utmCampaign: p.text().nullable(),
    utmTerm: p.text().nullable(),
    utmContent: p.text().nullable(),
    createdAt: p.datetime().length(3),
  },
});
