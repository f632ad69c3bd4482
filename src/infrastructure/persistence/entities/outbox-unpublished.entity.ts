import { defineEntity, p } from '@mikro-orm/postgresql';

export class OutboxUnpublishedRow {
  id!: string;
}

export const OutboxUnpublishedEntity = defineEntity({
  class: OutboxUnpublishedRow,
  tableName: 'outbox_unpublished',
  properties: {
    id: p.text().primary().collation('C'),
  },
});
