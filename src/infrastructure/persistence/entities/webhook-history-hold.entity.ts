import { type InferEntity, defineEntity } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';

export const WebhookHistoryHoldEntity = defineEntity({
  name: 'WebhookHistoryHoldRow',
  tableName: 'webhook_history_holds',
  properties: {
    day: textKey(),
    tenantId: textKey(),
    givenUpAt: instant(),
  },
});

export type WebhookHistoryHoldRow = InferEntity<typeof WebhookHistoryHoldEntity>;
