import { PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';

export class ApiKeyCacheHolderRow {
  [PrimaryKeyProp]?: 'holder';
  holder!: string;
  seenAt!: Date;
}

export const ApiKeyCacheHolderEntity = defineEntity({
  class: ApiKeyCacheHolderRow,
  tableName: 'api_key_cache_holders',
  checks: [
    {
      name: 'api_key_cache_holders_holder_check',
      expression: 'length(holder) <= 200',
    },
  ],
  properties: {
    holder: p.text().primary(),
    seenAt: p.datetime(),
  },
});
