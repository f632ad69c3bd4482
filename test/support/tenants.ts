import { MikroORM } from '@mikro-orm/postgresql';
import { Tenant } from '../../src/domain/tenant/tenant';
import { MikroOrmTenantRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-tenant.repository';

/** The id of a new tenant, written through its repository. */
export async function newTenantId(orm: MikroORM, name: string): Promise<string> {
  const tenant = Tenant.create(name, new Date());
  await new MikroOrmTenantRepository(orm.em.fork()).save(tenant);
  return tenant.id;
}
