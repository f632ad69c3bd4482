import { type Opt, PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { PageGroupRow } from './page-group.entity';

export class PageGroupCounterRow {
  [PrimaryKeyProp]?: ['pageGroup', 'shard'];
  pageGroup!: PageGroupRow;
  shard!: number;
  tenantId!: string;
  live!: boolean;
  pagesCount: number & Opt = 0;
}

export const PageGroupCounterEntity = defineEntity({
  class: PageGroupCounterRow,
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
    pageGroup: () => p.manyToOne(PageGroupRow).primary().updateRule('no action').deleteRule('cascade').collation('C'),
    shard: p.smallint().primary(),
    tenantId: p.text().collation('C'),
    live: p.boolean(),
    pagesCount: p.integer(),
  },
});
