import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';
import { partitionedByDay } from './history-partitions';

export const EventFeedEntryEntity = defineEntity({
  name: 'EventFeedEntryRow',
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
    eventId: textKey(),
    tenantId: p.text().collation('C'),
    type: p.text(),
    createdAt: instant(),
    position: p.bigint(),
    publishedAt: instant(),
  },
});

export type EventFeedEntryRow = InferEntity<typeof EventFeedEntryEntity>;
