import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';

export const TenantEntity = defineEntity({
  name: 'TenantRow',
  tableName: 'tenants',
  properties: {
    id: textKey(),
    name: p.text(),
    createdAt: instant(),
  },
});

export type TenantRow = InferEntity<typeof TenantEntity>;
