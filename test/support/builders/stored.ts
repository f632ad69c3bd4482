import { MikroORM } from '@mikro-orm/postgresql';
import { PageGroup } from '../../../src/domain/page-group/page-group';
import { Tenant } from '../../../src/domain/tenant/tenant';
import { SqlPageGroupRepository } from '../../../src/infrastructure/persistence/repositories/sql-page-group.repository';
import { SqlTenantRepository } from '../../../src/infrastructure/persistence/repositories/sql-tenant.repository';
import { aPageGroup } from './aggregates';

// Test data written through the production repositories, for integration tests.

/** The id of a new tenant. */
export async function newTenantId(orm: MikroORM, name: string): Promise<string> {
  const tenant = Tenant.create(name, new Date());
  await new SqlTenantRepository(orm.em.fork()).add(tenant);
  return tenant.id;
}

/** A new tenant with one live page group. */
export async function groupOfNewTenant(orm: MikroORM, tenantName: string): Promise<PageGroup> {
  const group = aPageGroup(await newTenantId(orm, tenantName));
  await new SqlPageGroupRepository(orm.em.fork()).add(group);
  return group;
}
