import { EntitySchema } from '@mikro-orm/core';
import { entityClass } from './entity-class';
import { Tenant } from '../../../domain/tenant/tenant';

export const TenantSchema = new EntitySchema<Tenant>({
  class: entityClass(Tenant),
  tableName: 'tenants',
  properties: {
    id: { type: 'string', primary: true },
    name: { type: 'string' },
    createdAt: { type: 'datetime' },
  },
});
