import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageQueries } from '../../../application/page/page.queries';
import { PageListItemView, UtmParametersView } from '../../../application/page/page.view';
import { Page, PageRequest, toPage } from '../../../application/shared/pagination';
import { UtmKind } from '../../../domain/page/page-session';
import { isoTimestamp } from '../sql';

interface PageRow {
  id: string;
  page_group_id: string;
  tenant_id: string;
  created_at: string;
  updated_at: string;
}

const UTM_ARRAYS: Record<UtmKind, keyof UtmParametersView> = {
  campaign: 'utm_campaigns',
  content: 'utm_contents',
  medium: 'utm_mediums',
  source: 'utm_sources',
  term: 'utm_terms',
};

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

  async utmParameters(pageGroupId: string): Promise<UtmParametersView> {
    // One row of five JSON arrays, built by PostgreSQL from the primary key's index, in byte order.
    const array = (kind: UtmKind) => `coalesce(json_agg(value ORDER BY value) FILTER (WHERE kind = '${kind}'), '[]')`;
    const rows = await this.em.execute<UtmParametersView[]>(
      `SELECT ${(Object.keys(UTM_ARRAYS) as UtmKind[]).map((kind) => `${array(kind)} AS "${UTM_ARRAYS[kind]}"`).join(', ')}
       FROM page_group_utm_values WHERE page_group_id = ?`,
      [pageGroupId],
    );
    const row = rows[0];
    return { utm_campaigns: row.utm_campaigns, utm_contents: row.utm_contents, utm_mediums: row.utm_mediums, utm_sources: row.utm_sources, utm_terms: row.utm_terms };
  }
}
