import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TemplateQueries, TemplateType } from '../../../application/template/template-queries.port';
import { TemplateView, toTemplateView } from '../../../application/template/template.view';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { COLUMNS, TemplateRow, toTemplate } from '../stored/template.row';
import { sqlParams, sqlRows } from '../connection/sql-statement';

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
    const p = sqlParams();
    const walk = (owner: string) => `(SELECT ${COLUMNS} FROM templates WHERE ${owner} ${page.after ? `AND id < ${p(page.after)}` : ''} ORDER BY id DESC LIMIT ${p(page.limit + 1)})`;
    const parts: string[] = [];
    if (filter.type !== 'custom') parts.push(walk('tenant_id IS NULL'));
    if (filter.type !== 'system') parts.push(walk(`tenant_id = ${p(tenantId)}`));
    const rows = await sqlRows<TemplateRow>(this.em, `SELECT * FROM (${parts.join(' UNION ALL ')}) t ORDER BY id DESC LIMIT ${p(page.limit + 1)}`, p.values);
    return toSlice(rows.map((row) => toTemplateView(toTemplate(row))), page.limit, (item) => item.pageTemplateId);
  }
}
