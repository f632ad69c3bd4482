import { type Opt, PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant, reference } from './columns';
import { UTM_KINDS, type UtmKind } from './utm-kinds';
import { PageGroupRow } from './page-group.entity';

export class PageGroupUtmValueRow {
  [PrimaryKeyProp]?: ['pageGroup', 'kind', 'value'];
  pageGroup!: PageGroupRow;
  kind!: UtmKind;
  value!: string;
  lastSeenAt!: Date & Opt;
}


export const PageGroupUtmValueEntity = defineEntity({
  class: PageGroupUtmValueRow,
  tableName: 'page_group_utm_values',
  indexes: [
    {
      name: 'page_group_utm_values_recent_idx',
      properties: ['pageGroup', 'kind', 'lastSeenAt'],
      columns: [
        { name: 'pageGroup' },
        { name: 'kind' },
        { name: 'lastSeenAt', sort: 'DESC' },
      ],
      include: ['value'],
    },
  ],
  properties: {
    pageGroup: () => reference(PageGroupRow).primary(),
    kind: p.enum(() => UTM_KINDS).primary(),
    value: textKey(),
    lastSeenAt: instant().defaultRaw(`now()`),
  },
});
