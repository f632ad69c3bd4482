import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { reference } from './columns';
import { PageEntity } from './page.entity';

export const PageSessionHourEntity = defineEntity({
  name: 'PageSessionHourRow',
  tableName: 'page_session_hours',
  uniques: [
    {
      name: 'page_session_hours_key',
      properties: ['page', 'hour'],
      include: ['sessions'],
    },
  ],
  checks: [
    { name: 'page_session_hours_sessions_check', expression: 'sessions > 0' },
  ],
  properties: {
    page: () => reference(PageEntity).primary(),
    hour: p.datetime().primary(),
    sessions: p.integer(),
  },
});

export type PageSessionHourRow = InferEntity<typeof PageSessionHourEntity>;
