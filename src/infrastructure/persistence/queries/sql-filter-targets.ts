import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { FilterTargets } from '../../../application/webhook/subscriptions/filter-targets.port';
import { sqlRows } from '../connection/sql-statement';

/** Primary-key probes, at most 100 ids each (MAX_FILTER_IDS). */
@Injectable()
export class SqlFilterTargets extends FilterTargets {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async pageGroupsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await sqlRows<{ id: string }>(this.em, 'SELECT id FROM page_groups WHERE id = ANY($2::text[]) AND tenant_id = $1 AND deleted_at IS NULL', [tenantId, ids]);
    return new Set(rows.map((row) => row.id));
  }

  async brandsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await sqlRows<{ id: string }>(this.em, 'SELECT id FROM brands WHERE id = ANY($2::text[]) AND tenant_id = $1', [tenantId, ids]);
    return new Set(rows.map((row) => row.id));
  }
}
