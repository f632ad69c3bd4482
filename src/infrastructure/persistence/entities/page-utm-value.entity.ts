import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference } from './columns';
import { UTM_KINDS } from './utm-kinds';
import { PageEntity } from './page.entity';

export const PageUtmValueEntity = defineEntity({
  name: 'PageUtmValueRow',
  tableName: 'page_utm_values',
  indexes: [
    {
      name: 'page_utm_values_top_idx',
      properties: ['page', 'kind', 'total', 'value'],
      columns: [
        { name: 'page' },
        { name: 'kind' },
        { name: 'total', sort: 'DESC' },
        { name: 'value' },
      ],
    },
  ],
  checks: [{ name: 'page_utm_values_total_check', expression: 'total > 0' }],
  properties: {
    page: () => reference(PageEntity).primary(),
    kind: p.enum(() => UTM_KINDS).primary(),
    value: textKey(),
    firstHour: p.datetime(),
    lastHour: p.datetime(),
    total: p.integer(),
  },
});

export type PageUtmValueRow = InferEntity<typeof PageUtmValueEntity>;
