import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';

export const ApiKeyCacheHolderEntity = defineEntity({
  name: 'ApiKeyCacheHolderRow',
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

export type ApiKeyCacheHolderRow = InferEntity<typeof ApiKeyCacheHolderEntity>;
