import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TemplateQueries, TemplateType } from '../../../application/template/template-queries.port';
import { TemplateView, toTemplateView } from '../../../application/template/template.view';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { TEMPLATE_COLUMNS, toTemplate } from '../stored/template-record';
import { schema } from '../typed/database';
import { type Arg, statementVariants, typedStatement } from '../typed/statement';

type ListArgs = { tenantId: string; after: string; limit: number };

/** One newest-first walk of templates_tenant_id_id_idx: the system templates or the tenant's own, cut at the page. */
function walk(arg: Arg<ListArgs>, owner: 'system' | 'tenant', after: boolean) {
  return schema
    .selectFrom('templates')
    .select(TEMPLATE_COLUMNS)
    .where((eb) => (owner === 'system' ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', arg('tenantId'))))
    .$if(after, (qb) => qb.where('id', '<', arg('after')))
    .orderBy('id', 'desc')
    .limit(arg('limit'));
}

/** The list's statement for a filter and whether it continues a cursor: six in all, each built once. */
const LIST = statementVariants((variant: `${TemplateType | 'all'} ${'after' | 'first'}`) => {
  const [type, from] = variant.split(' ');
  return typedStatement<ListArgs>()((arg) => {
    const owners = (['system', 'tenant'] as const).filter((owner) => type !== (owner === 'system' ? 'custom' : 'system'));
    const walks = owners.map((owner) => walk(arg, owner, from === 'after'));
    const first = schema.selectFrom(walks[0].as('w0')).selectAll();
    const merged = walks[1] ? first.unionAll(schema.selectFrom(walks[1].as('w1')).selectAll()) : first;
    return schema.selectFrom(merged.as('t')).selectAll().orderBy('id', 'desc').limit(arg('limit'));
  });
});

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
    const rows = await LIST(`${filter.type ?? 'all'} ${page.after === undefined ? 'first' : 'after'}`).rows(this.em, { tenantId, after: page.after ?? '', limit: page.limit + 1 });
    return toSlice(rows.map((row) => toTemplateView(toTemplate(row))), page.limit, (item) => item.pageTemplateId);
  }
}
