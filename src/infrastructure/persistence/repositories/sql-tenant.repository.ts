import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Tenant } from '../../../domain/tenant/tenant';
import { TenantRepository } from '../../../domain/tenant/tenant-repository.port';
import { sqlRows } from '../connection/sql-statement';

/** Tenants with plain statements, as every other repository (decisions.md 137). */
@Injectable()
export class SqlTenantRepository extends TenantRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(id: string): Promise<Tenant | null> {
    const rows = await sqlRows<{ id: string; name: string; created_at: string }>(this.em, 'SELECT id, name, created_at FROM tenants WHERE id = $1', [id]);
    return rows.length === 0 ? null : Tenant.restore({ id: rows[0].id, name: rows[0].name, createdAt: new Date(rows[0].created_at) });
  }

  async add(tenant: Tenant): Promise<void> {
    await sqlRows(this.em, 'INSERT INTO tenants (id, name, created_at) VALUES ($1, $2, $3)', [tenant.id, tenant.name, tenant.createdAt]);
  }
}
