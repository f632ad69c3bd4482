import { MikroORM } from '@mikro-orm/postgresql';
import { PageGroup } from '../../src/domain/page-group/page-group';
import { Tenant } from '../../src/domain/tenant/tenant';
import { MikroOrmPageGroupRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-page-group.repository';
import { MikroOrmTenantRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-tenant.repository';
import { inContext } from './database';

/** A new tenant with one live page group, written through the repositories. */
export function groupOfNewTenant(orm: MikroORM, tenantName: string): Promise<PageGroup> {
  return inContext(orm, async () => {
    const tenant = Tenant.create(tenantName, new Date());
    await new MikroOrmTenantRepository(orm.em).save(tenant);
    const group = PageGroup.create({ tenantId: tenant.id, name: 'G' }, new Date());
    await new MikroOrmPageGroupRepository(orm.em).save(group);
    return group;
  });
}
