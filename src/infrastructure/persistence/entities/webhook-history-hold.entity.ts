import { PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';

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
    day: p.text().primary().collation('C'),
    tenantId: p.text().primary().collation('C'),
    givenUpAt: p.datetime().length(3),
  },
});
