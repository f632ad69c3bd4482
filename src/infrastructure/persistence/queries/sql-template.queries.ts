import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TemplateQueries, TemplateType } from '../../../application/template/template.queries';
import { TemplateView, toTemplateView } from '../../../application/template/template.view';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { COLUMNS, TemplateRow, toTemplate } from '../template.rows';

/**
 * The list merges two walks of templates_tenant_id_id_idx, newest first: the system templates
 * (tenant_id IS NULL) and the tenant's own, each cut at the page size, so it never reads other
 * tenants' templates whatever their number.
 */
@Injectable()
export class SqlTemplateQueries extends TemplateQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, filter: { type?: TemplateType }, page: ListRequest): Promise<ListSlice<TemplateView>> {
    const after = page.after ? 'AND id < ?' : '';
    const walk = (owner: string) => `(SELECT ${COLUMNS} FROM templates WHERE ${owner} ${after} ORDER BY id DESC LIMIT ?)`;
    const parts: { sql: string; params: unknown[] }[] = [];
    const tail = [...(page.after ? [page.after] : []), page.limit + 1];
    if (filter.type !== 'custom') parts.push({ sql: walk('tenant_id IS NULL'), params: tail });
    if (filter.type !== 'system') parts.push({ sql: walk('tenant_id = ?'), params: [tenantId, ...tail] });
    const rows = await this.em.execute<TemplateRow[]>(
      `SELECT * FROM (${parts.map((p) => p.sql).join(' UNION ALL ')}) t ORDER BY id DESC LIMIT ?`,
      [...parts.flatMap((p) => p.params), page.limit + 1],
    );
    return toSlice(rows.map((row) => toTemplateView(toTemplate(row))), page.limit, (item) => item.pageTemplateId);
  }
}
