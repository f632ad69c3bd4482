import { defineEntity, p } from '@mikro-orm/postgresql';

export class TenantRow {
  id!: string;
  name!: string;
  createdAt!: Date;
}

export const TenantEntity = defineEntity({
  class: TenantRow,
  tableName: 'tenants',
  properties: {
    id: p.text().primary().collation('C'),
    name: p.text(),
    createdAt: p.datetime().length(3),
  },
});
