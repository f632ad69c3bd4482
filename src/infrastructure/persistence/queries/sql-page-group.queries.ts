import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroupQueries } from '../../../application/page-group/page-group-queries.port';
import { PageGroupView } from '../../../application/page-group/page-group.view';
import { JsonText } from '../../../application/shared/json-text';
import { mapSlice, ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { PageGroupStatus } from '../../../domain/page-group/page-group';
import { sql } from 'kysely';
import { pagesCountOfGroup } from '../stored/page-count';
import { schema } from '../typed/database';
import { statementVariants, typedStatement } from '../typed/statement';

/** The list item's JSON: the stored text around the group's current count of pages (Migration...20261123000000). */
const itemJson = () => sql<string>`g.view_head || (${pagesCountOfGroup()}) || g.view_tail`.as('view_json');

// Served by the partial indexes on live groups: (tenant_id, id) or (tenant_id, status, id).
// Four shapes (with or without status and cursor), each its own prepared statement.
type ListArgs = { tenantId: string; status: PageGroupStatus; after: string; limit: number };
const LIST = statementVariants((variant: `${'status' | 'any'} ${'after' | 'first'}`) =>
  typedStatement<ListArgs>()((arg) =>
    schema
      .selectFrom('page_groups as g')
      .select(['g.id', itemJson()])
      .where('g.tenant_id', '=', arg('tenantId'))
      .where('g.deleted_at', 'is', null)
      .$if(variant.startsWith('status'), (qb) => qb.where('g.status', '=', arg('status')))
      .$if(variant.endsWith('after'), (qb) => qb.where('g.id', '<', arg('after')))
      .orderBy('g.id', 'desc')
      .limit(arg('limit')),
  ),
);
const IS_ACTIVE = typedStatement<{ tenantId: string; id: string }>()((arg) =>
  schema.selectFrom('page_groups').select(sql<number>`1`.as('one')).where('id', '=', arg('id')).where('tenant_id', '=', arg('tenantId')).where('deleted_at', 'is', null),
);
const FIND_ACTIVE = typedStatement<{ tenantId: string; id: string }>()((arg) =>
  schema.selectFrom('page_groups as g').select(itemJson()).where('g.tenant_id', '=', arg('tenantId')).where('g.id', '=', arg('id')).where('g.deleted_at', 'is', null),
);

@Injectable()
export class SqlPageGroupQueries extends PageGroupQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, filter: { status?: PageGroupStatus }, page: ListRequest): Promise<ListSlice<JsonText<PageGroupView>>> {
    // The item's JSON, stored by the writer of the group (stored-views.ts).
    const rows = await LIST(`${filter.status ? 'status' : 'any'} ${page.after ? 'after' : 'first'}`).rows(this.em, {
      tenantId, status: filter.status ?? 'draft', after: page.after ?? '', limit: page.limit + 1,
    });
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<PageGroupView>(row.view_json));
  }

  async isActive(tenantId: string, id: string): Promise<boolean> {
    return (await IS_ACTIVE.rows(this.em, { tenantId, id })).length > 0;
  }

  async findActive(tenantId: string, id: string): Promise<JsonText<PageGroupView> | null> {
    const [row] = await FIND_ACTIVE.rows(this.em, { tenantId, id });
    return row ? new JsonText<PageGroupView>(row.view_json) : null;
  }
}
