import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Tenant } from '../../../domain/tenant/tenant';
import { TenantRepository } from '../../../domain/tenant/tenant-repository.port';
import { TenantEntity } from '../entities/tenant.entity';

/**
 * Tenants through the ORM's own calls: a cold path (the platform's CLI makes tenants, and a
 * request never reads one), where the ORM costs nothing that matters (decisions.md 184). Reads
 * leave the identity map alone: a repository hands out aggregates, never managed entities.
 */
@Injectable()
export class SqlTenantRepository extends TenantRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(id: string): Promise<Tenant | null> {
    const row = await this.em.findOne(TenantEntity, { id }, { disableIdentityMap: true });
    return row ? Tenant.restore({ id: row.id, name: row.name, createdAt: row.createdAt }) : null;
  }

  async add(tenant: Tenant): Promise<void> {
    await this.em.insert(TenantEntity, { id: tenant.id, name: tenant.name, createdAt: tenant.createdAt });
  }
}
