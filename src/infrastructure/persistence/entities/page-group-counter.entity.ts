import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { PageGroupEntity } from './page-group.entity';

export const PageGroupCounterEntity = defineEntity({
  name: 'PageGroupCounterRow',
  tableName: 'page_group_counters',
  checks: [
    {
      name: 'page_group_counters_pages_count_check',
      expression: 'pages_count >= 0',
    },
    {
      name: 'page_group_counters_shard_check',
      expression: '(shard >= 0) AND (shard < 8)',
    },
  ],
  properties: {
    pageGroup: () => p.manyToOne(PageGroupEntity).primary().updateRule('no action').deleteRule('cascade').collation('C'),
    shard: p.smallint().primary(),
    tenantId: p.text().collation('C'),
    live: p.boolean(),
    pagesCount: p.integer().default(0),
  },
});

export type PageGroupCounterRow = InferEntity<typeof PageGroupCounterEntity>;
