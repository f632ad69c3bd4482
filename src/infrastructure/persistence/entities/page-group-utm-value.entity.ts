import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant, reference } from './columns';
import { UTM_KINDS } from './utm-kinds';
import { PageGroupEntity } from './page-group.entity';

export const PageGroupUtmValueEntity = defineEntity({
  name: 'PageGroupUtmValueRow',
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
    pageGroup: () => reference(PageGroupEntity).primary(),
    kind: p.enum(() => UTM_KINDS).primary(),
    value: textKey(),
    lastSeenAt: instant().defaultRaw(`now()`),
  },
});

export type PageGroupUtmValueRow = InferEntity<typeof PageGroupUtmValueEntity>;
