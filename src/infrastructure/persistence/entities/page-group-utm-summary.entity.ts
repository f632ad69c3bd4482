import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { reference } from './columns';
import { PageGroupEntity } from './page-group.entity';

export const PageGroupUtmSummaryEntity = defineEntity({
  name: 'PageGroupUtmSummaryRow',
  tableName: 'page_group_utm_summaries',
  properties: {
    // A many-to-one that is the key (one summary a group): typed as its column, page_group_id, where a one-to-one is not.
    pageGroup: () => reference(PageGroupEntity).primary(),
    body: p.text().nullable(),
    generation: p.bigint().defaultRaw(`1`),
    bodyGeneration: p.bigint().defaultRaw(`0`),
  },
});

export type PageGroupUtmSummaryRow = InferEntity<typeof PageGroupUtmSummaryEntity>;
