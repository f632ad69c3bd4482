import { PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';

export class WebhookHistoryHoldRow {
  [PrimaryKeyProp]?: ['day', 'tenantId'];
  day!: string;
  tenantId!: string;
  givenUpAt!: Date;
}

export const WebhookHistoryHoldEntity = defineEntity({
  class: WebhookHistoryHoldRow,
  tableName: 'webhook_history_holds',
  properties: {
    day: textKey(),
    tenantId: textKey(),
    givenUpAt: instant(),
  },
});
