import { defineEntity, p } from '@mikro-orm/postgresql';
import { reference } from './columns';
import { PageRow } from './page.entity';

export class PageSessionHourRow {
  page!: PageRow;
  hour!: Date;
  sessions!: number;
}

export const PageSessionHourEntity = defineEntity({
  class: PageSessionHourRow,
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
    page: () => reference(PageRow).primary(),
    hour: p.datetime().primary(),
    sessions: p.integer(),
  },
});
