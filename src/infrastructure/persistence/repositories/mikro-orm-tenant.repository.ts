import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Tenant } from '../../../domain/tenant/tenant';
import { TenantRepository } from '../../../domain/tenant/tenant-repository.port';

@Injectable()
export class MikroOrmTenantRepository extends TenantRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(id: string): Promise<Tenant | null> {
    return this.em.findOne(Tenant, { id });
  }

  async save(tenant: Tenant): Promise<void> {
    await this.em.persist(tenant).flush();
  }
}
