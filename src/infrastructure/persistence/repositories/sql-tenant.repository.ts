import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Tenant } from '../../../domain/tenant/tenant';
import { TenantRepository } from '../../../domain/tenant/tenant-repository.port';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

const FIND = typedStatement<{ id: string }, { id: string; name: string; created_at: Date }>((arg) =>
  schema.selectFrom('tenants').select(['id', 'name', 'created_at']).where('id', '=', arg('id')),
);
const ADD = typedStatement<{ id: string; name: string; createdAt: Date }, unknown>((arg) =>
  schema.insertInto('tenants').values({ id: arg('id'), name: arg('name'), created_at: arg('createdAt') }),
);

/** Tenants, with statements typed from the entities (typed/statement.ts, decisions.md 184). */
@Injectable()
export class SqlTenantRepository extends TenantRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(id: string): Promise<Tenant | null> {
    const [row] = await FIND.rows(this.em, { id });
    return row ? Tenant.restore({ id: row.id, name: row.name, createdAt: new Date(row.created_at) }) : null;
  }

  async add(tenant: Tenant): Promise<void> {
    await ADD.count(this.em, { id: tenant.id, name: tenant.name, createdAt: tenant.createdAt });
  }
}
