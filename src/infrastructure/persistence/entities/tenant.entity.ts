import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant } from './columns';

export class TenantRow {
  id!: string;
  name!: string;
  createdAt!: Date;
}

export const TenantEntity = defineEntity({
  class: TenantRow,
  tableName: 'tenants',
  properties: {
    id: textKey(),
    name: p.text(),
    createdAt: instant(),
  },
});
