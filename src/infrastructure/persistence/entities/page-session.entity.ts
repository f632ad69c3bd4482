import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
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
    id: textKey(),
    tenant: () => reference(TenantRow),
    page: () => reference(PageRow),
    pageGroup: () => reference(PageGroupRow),
    utmSource: p.text().nullable(),
    utmMedium: p.text().nullable(),
    utmCampaign: p.text().nullable(),
    utmTerm: p.text().nullable(),
    utmContent: p.text().nullable(),
    createdAt: instant(),
  },
});
