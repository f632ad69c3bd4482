import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { FilterTargets } from '../../../application/webhook/subscriptions/filter-targets.port';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

type Probe = { tenantId: string; ids: readonly string[] };
const anyOf = (ids: readonly string[]) => sql<string>`any(${ids}::text[])`;
const PAGE_GROUPS = typedStatement<Probe>()((arg) =>
  schema.selectFrom('page_groups').select('id').where('id', '=', anyOf(arg('ids'))).where('tenant_id', '=', arg('tenantId')).where('deleted_at', 'is', null),
);
const BRANDS = typedStatement<Probe>()((arg) =>
  schema.selectFrom('brands').select('id').where('id', '=', anyOf(arg('ids'))).where('tenant_id', '=', arg('tenantId')),
);

/** Primary-key probes, at most 100 ids each (MAX_FILTER_IDS). */
@Injectable()
export class SqlFilterTargets extends FilterTargets {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async pageGroupsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await PAGE_GROUPS.rows(this.em, { tenantId, ids });
    return new Set(rows.map((row) => row.id));
  }

  async brandsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await BRANDS.rows(this.em, { tenantId, ids });
    return new Set(rows.map((row) => row.id));
  }
}
