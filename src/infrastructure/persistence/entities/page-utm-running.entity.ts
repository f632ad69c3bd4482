import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey } from './columns';

/**
 * The running total of a page's UTM value in an hour. Its key (the unique index) is declared as the
 * entity's primary key, which MikroORM needs; its foreign key to page_utm_values spans columns of
 * two collations, which MikroORM cannot declare (schema-exceptions.ts).
 */

export const PageUtmRunningEntity = defineEntity({
  name: 'PageUtmRunningRow',
  tableName: 'page_utm_running',
  uniques: [{ name: 'page_utm_running_key', properties: ['pageId', 'kind', 'value', 'hour'], include: ['total'] }],
  checks: [{ name: 'page_utm_running_total_check', expression: 'total > 0' }],
  properties: {
    pageId: textKey(),
    kind: p.text().primary(),
    value: textKey(),
    hour: p.datetime().primary(),
    total: p.integer(),
  },
});

export type PageUtmRunningRow = InferEntity<typeof PageUtmRunningEntity>;
