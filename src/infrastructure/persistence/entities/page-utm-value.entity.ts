import { PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference } from './columns';
import { UTM_KINDS, type UtmKind } from './utm-kinds';
import { PageRow } from './page.entity';

export class PageUtmValueRow {
  [PrimaryKeyProp]?: ['page', 'kind', 'value'];
  page!: PageRow;
  kind!: UtmKind;
  value!: string;
  firstHour!: Date;
  lastHour!: Date;
  total!: number;
}


export const PageUtmValueEntity = defineEntity({
  class: PageUtmValueRow,
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
    page: () => reference(PageRow).primary(),
    kind: p.enum(() => UTM_KINDS).primary(),
    value: textKey(),
    firstHour: p.datetime(),
    lastHour: p.datetime(),
    total: p.integer(),
  },
});
