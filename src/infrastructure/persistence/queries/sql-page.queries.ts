import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageQueries } from '../../../application/page/page.queries';
import { PageListItemView, UtmParametersView } from '../../../application/page/page.view';
import { Page, PageRequest, toPage } from '../../../application/shared/pagination';
import { JsonText } from '../../../application/shared/json-text';
import { preparedRows } from '../prepared';
import { isoTimestamp } from '../sql';

interface PageRow {
  id: string;
  page_group_id: string;
  tenant_id: string;
  created_at: string;
  updated_at: string;
}

// A live group with no UTM value yet has no summary row (Migration20261122040000_utm_summaries).
const NO_UTM_VALUES: string = JSON.stringify({ utm_campaigns: [], utm_contents: [], utm_mediums: [], utm_sources: [], utm_terms: [] } satisfies UtmParametersView);

@Injectable()
export class SqlPageQueries extends PageQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async listByGroup(tenantId: string, pageGroupId: string, page: PageRequest): Promise<Page<PageListItemView>> {
    const after = page.after ? 'AND id < ?' : '';
    const rows = await this.em.execute<PageRow[]>(
      `SELECT id, page_group_id, tenant_id, ${isoTimestamp('created_at')} AS created_at, ${isoTimestamp('updated_at')} AS updated_at
       FROM pages WHERE page_group_id = ? AND tenant_id = ? ${after} ORDER BY id DESC LIMIT ?`,
      [pageGroupId, tenantId, ...(page.after ? [page.after] : []), page.limit + 1],
    );
    const items = rows.map((row) => ({ pageId: row.id, pageGroupId: row.page_group_id, tenantId: row.tenant_id, createdAt: row.created_at, updatedAt: row.updated_at }));
    return toPage(items, page.limit, (item) => item.pageId);
  }

  async utmParameters(tenantId: string, pageGroupId: string): Promise<JsonText<UtmParametersView> | null> {
    // The JSON that PostgreSQL keeps per group, read by primary key together with the group check.
    const rows = await preparedRows<{ body: string | null }>(
      this.em,
      'utm-summary',
      `SELECT s.body FROM page_groups g LEFT JOIN page_group_utm_summaries s ON s.page_group_id = g.id
       WHERE g.id = $1 AND g.tenant_id = $2 AND g.deleted_at IS NULL`,
      [pageGroupId, tenantId],
    );
    return rows.length === 0 ? null : new JsonText(rows[0].body ?? NO_UTM_VALUES);
  }
}
