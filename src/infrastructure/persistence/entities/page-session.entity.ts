import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import { partitionedByDay } from './history-partitions';
import { PageGroupEntity } from './page-group.entity';
import { PageEntity } from './page.entity';
import { TenantEntity } from './tenant.entity';

export const PageSessionEntity = defineEntity({
  name: 'PageSessionRow',
  tableName: 'page_sessions',
  partitionBy: partitionedByDay('page_sessions', 'id', 'pagesession'),
  indexes: [{ name: 'page_sessions_page_id_idx', properties: ['page', 'id'] }],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    page: () => reference(PageEntity),
    pageGroup: () => reference(PageGroupEntity),
    utmSource: p.text().nullable(),
    utmMedium: p.text().nullable(),
    utmCampaign: p.text().nullable(),
    utmTerm: p.text().nullable(),
    utmContent: p.text().nullable(),
    createdAt: instant(),
  },
});

export type PageSessionRow = InferEntity<typeof PageSessionEntity>;
