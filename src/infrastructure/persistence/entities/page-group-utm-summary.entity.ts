import { type Opt, PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { reference } from './columns';
import { PageGroupRow } from './page-group.entity';

export class PageGroupUtmSummaryRow {
  [PrimaryKeyProp]?: 'pageGroup';
  pageGroup!: PageGroupRow;
  body: string | null = null;
  generation!: bigint & Opt;
  bodyGeneration!: bigint & Opt;
}

export const PageGroupUtmSummaryEntity = defineEntity({
  class: PageGroupUtmSummaryRow,
  tableName: 'page_group_utm_summaries',
  properties: {
    // A many-to-one that is the key (one summary a group): typed as its column, page_group_id, where a one-to-one is not.
    pageGroup: () => reference(PageGroupRow).primary(),
    body: p.text().nullable(),
    generation: p.bigint().defaultRaw(`1`),
    bodyGeneration: p.bigint().defaultRaw(`0`),
  },
});
