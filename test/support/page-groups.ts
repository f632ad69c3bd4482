import { MikroORM } from '@mikro-orm/postgresql';
import { PageGroup } from '../../src/domain/page-group/page-group';
import { MikroOrmPageGroupRepository } from '../../src/infrastructure/persistence/repositories/mikro-orm-page-group.repository';
import { newTenantId } from './tenants';

/** A new tenant with one live page group, written through the repositories. */
export async function groupOfNewTenant(orm: MikroORM, tenantName: string): Promise<PageGroup> {
  const group = PageGroup.create({ tenantId: await newTenantId(orm, tenantName), name: 'G' }, new Date());
  await new MikroOrmPageGroupRepository(orm.em.fork()).save(group);
  return group;
}
