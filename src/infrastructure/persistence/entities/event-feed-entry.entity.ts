import { defineEntity, p } from '@mikro-orm/postgresql';
import { partitionedByDay } from './history-partitions';

export class EventFeedEntryRow {
  eventId!: string;
  tenantId!: string;
  type!: string;
  createdAt!: Date;
  position!: bigint;
  publishedAt!: Date;
}

export const EventFeedEntryEntity = defineEntity({
  class: EventFeedEntryRow,
  tableName: 'event_feed',
  partitionBy: partitionedByDay('event_feed', 'event_id', 'evt'),
  indexes: [
    {
      name: 'event_feed_position_idx',
      expression: 'CREATE INDEX event_feed_position_idx ON ONLY public.event_feed USING btree (tenant_id, "position")',
      properties: ['tenantId', 'position'],
    },
  ],
  properties: {
    eventId: p.text().primary().collation('C'),
    tenantId: p.text().collation('C'),
    type: p.text(),
    createdAt: p.datetime().length(3),
    position: p.bigint(),
    publishedAt: p.datetime().length(3),
  },
});
