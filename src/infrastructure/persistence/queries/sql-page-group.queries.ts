import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroupQueries } from '../../../application/page-group/page-group-queries.port';
import { PageGroupView } from '../../../application/page-group/page-group.view';
import { JsonText } from '../../../application/shared/json-text';
import { mapSlice, ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { PageGroupStatus } from '../../../domain/page-group/page-group';
import { sqlRows } from '../connection/sql-statement';
import { pagesCountOf } from '../stored/page-count.sql';

const PAGES_COUNT = pagesCountOf('g.id');
/** The list item's JSON: the stored text around the group's current count of pages (Migration...20261123000000). */
const ITEM_JSON = `g.view_head || ${PAGES_COUNT} || g.view_tail`;

@Injectable()
export class SqlPageGroupQueries extends PageGroupQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, filter: { status?: PageGroupStatus }, page: ListRequest): Promise<ListSlice<JsonText<PageGroupView>>> {
    // Served by the partial indexes on live groups: (tenant_id, id) or (tenant_id, status, id).
    // Four shapes (with or without status and cursor), each its own prepared statement (sqlRows).
    const where = ['g.tenant_id = $1', 'g.deleted_at IS NULL'];
    const params: unknown[] = [tenantId];
    if (filter.status) {
      params.push(filter.status);
      where.push(`g.status = $${params.length}`);
    }
    if (page.after) {
      params.push(page.after);
      where.push(`g.id < $${params.length}`);
    }
    params.push(page.limit + 1);
    // The item's JSON, stored by the writer of the group (stored-views.ts).
    const rows = await sqlRows<{ id: string; view_json: string }>(
      this.em,
      `SELECT g.id, ${ITEM_JSON} AS view_json FROM page_groups g
        WHERE ${where.join(' AND ')} ORDER BY g.id DESC LIMIT $${params.length}`,
      params,
    );
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<PageGroupView>(row.view_json));
  }

  async isActive(tenantId: string, id: string): Promise<boolean> {
    const rows = await sqlRows(this.em, 'SELECT 1 FROM page_groups WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL', [id, tenantId]);
    return rows.length > 0;
  }

  async findActive(tenantId: string, id: string): Promise<JsonText<PageGroupView> | null> {
    const rows = await sqlRows<{ view_json: string }>(
      this.em,
      `SELECT ${ITEM_JSON} AS view_json FROM page_groups g WHERE g.tenant_id = $1 AND g.id = $2 AND g.deleted_at IS NULL`,
      [tenantId, id],
    );
    return rows.length === 0 ? null : new JsonText<PageGroupView>(rows[0].view_json);
  }
}
