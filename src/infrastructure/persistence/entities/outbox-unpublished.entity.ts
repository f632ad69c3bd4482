import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey } from './columns';

export class OutboxUnpublishedRow {
  id!: string;
}

export const OutboxUnpublishedEntity = defineEntity({
  class: OutboxUnpublishedRow,
  tableName: 'outbox_unpublished',
  properties: {
    id: textKey(),
  },
});
