import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroupQueries } from '../../../application/page-group/page-group.queries';
import { PageGroupView } from '../../../application/page-group/page-group.view';
import { JsonText } from '../../../application/shared/json-text';
import { mapSlice, ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { PageGroupStatus, PlatformObject } from '../../../domain/page-group/page-group';
import { sqlRows } from '../sql-statement';
import { isoTimestamp, pagesCountOf } from '../sql';

interface PageGroupRow {
  id: string;
  tenant_id: string;
  brand_id: string | null;
  name: string;
  title: string | null;
  page_context: string | null;
  page_template_id: string | null;
  header_action_id: string | null;
  status: PageGroupStatus;
  pages_count: number;
  actions: PlatformObject[];
  footer_links: PlatformObject[];
  scripts: PlatformObject[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const PAGES_COUNT = pagesCountOf('g.id');
const COLUMNS = `g.id, g.tenant_id, g.brand_id, g.name, g.title, g.page_context, g.page_template_id, g.header_action_id,
  g.status, ${PAGES_COUNT} AS pages_count, g.actions, g.footer_links, g.scripts, ${isoTimestamp('g.created_at')} AS created_at,
  ${isoTimestamp('g.updated_at')} AS updated_at, ${isoTimestamp('g.deleted_at')} AS deleted_at`;

@Injectable()
export class SqlPageGroupQueries extends PageGroupQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, filter: { status?: PageGroupStatus }, page: ListRequest): Promise<ListSlice<JsonText<PageGroupView>>> {
    // Served by the partial indexes on live groups: (tenant_id, id) or (tenant_id, status, id).
    // Four shapes (with or without status and cursor), each its own prepared statement.
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
    const name = `page-groups-list${filter.status ? '-status' : ''}${page.after ? '-after' : ''}`;
    // The item's JSON, rendered by PostgreSQL when the group was written, around its current count
    // of pages (Migration...20261123000000).
    const rows = await sqlRows<{ id: string; view_json: string }>(
      this.em,
      `SELECT g.id, g.view_head || ${PAGES_COUNT} || g.view_tail AS view_json FROM page_groups g
        WHERE ${where.join(' AND ')} ORDER BY g.id DESC LIMIT $${params.length}`,
      params,
    );
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<PageGroupView>(row.view_json));
  }

  async isActive(tenantId: string, id: string): Promise<boolean> {
    const rows = await sqlRows(this.em, 'SELECT 1 FROM page_groups WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL', [id, tenantId]);
    return rows.length > 0;
  }

  async findActive(tenantId: string, id: string): Promise<PageGroupView | null> {
    const rows = await sqlRows<PageGroupRow>(this.em, `SELECT ${COLUMNS} FROM page_groups g WHERE g.tenant_id = $1 AND g.id = $2 AND g.deleted_at IS NULL`, [tenantId, id]);
    return rows.length === 0 ? null : toView(rows[0]);
  }
}

function toView(row: PageGroupRow): PageGroupView {
  return {
    pageGroupId: row.id,
    tenantId: row.tenant_id,
    brandId: row.brand_id,
    name: row.name,
    title: row.title,
    pageContext: row.page_context,
    pageTemplateId: row.page_template_id,
    headerActionId: row.header_action_id,
    status: row.status,
    pagesCount: row.pages_count,
    actions: row.actions,
    footerLinks: row.footer_links,
    scripts: row.scripts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}
