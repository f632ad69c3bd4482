import { type InferEntity, defineEntity } from '@mikro-orm/postgresql';
import { textKey } from './columns';

export const OutboxUnpublishedEntity = defineEntity({
  name: 'OutboxUnpublishedRow',
  tableName: 'outbox_unpublished',
  properties: {
    id: textKey(),
  },
});

export type OutboxUnpublishedRow = InferEntity<typeof OutboxUnpublishedEntity>;
