import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroup, PageGroupStatus, PlatformObject } from '../../../domain/page-group/page-group';
import { PageGroupRepository } from '../../../domain/page-group/page-group-repository.port';
import { pagesCountOfGroup } from '../stored/page-count';
import { requireTransaction } from '../connection/sql-statement';
import { schema } from '../typed/database';
import { type Arg, asText, type RowOf, statementVariants, typedStatement } from '../typed/statement';
import { touched } from '../connection/after-commit';
import { storedPageGroupView } from '../stored/stored-views';
import { writeAggregates } from '../outbox/outbox.writer';
import { BoundedMemo } from '../../memo/bounded-memo';

const READ_COLUMNS = [
  'g.id', 'g.tenant_id', 'g.created_at', 'g.brand_id', 'g.name', 'g.title', 'g.page_context', 'g.page_template_id', 'g.header_action_id',
  'g.status', 'g.actions', 'g.footer_links', 'g.scripts', 'g.updated_at', 'g.deleted_at',
] as const;

const FIND_ACTIVE = statementVariants((lock: 'plain' | 'for update') =>
  typedStatement<{ id: string; tenantId: string }>()((arg) =>
    schema
      .selectFrom('page_groups as g')
      .select(READ_COLUMNS)
      .select(pagesCountOfGroup().as('pages_count'))
      .where('g.id', '=', arg('id'))
      .where('g.tenant_id', '=', arg('tenantId'))
      .where('g.deleted_at', 'is', null)
      .$if(lock === 'for update', (qb) => qb.forUpdate(['g'])),
  ),
);
const FIND_DEFAULTS = typedStatement<{ id: string; tenantId: string }>()((arg) =>
  schema.selectFrom('page_groups').select('page_template_id').where('id', '=', arg('id')).where('tenant_id', '=', arg('tenantId')).where('deleted_at', 'is', null),
);

/** What a change may touch, the stored list item included: the columns of `ownFields`. */
type Own = {
  brandId: string | null; name: string; title: string | null; pageContext: string | null; pageTemplateId: string | null; headerActionId: string | null;
  status: PageGroupStatus; actions: string; footerLinks: string; scripts: string; updatedAt: Date; deletedAt: Date | null; viewHead: string; viewTail: string;
};
const ownValues = (arg: Arg<Own>) => ({
  brand_id: arg('brandId'), name: arg('name'), title: arg('title'), page_context: arg('pageContext'), page_template_id: arg('pageTemplateId'),
  header_action_id: arg('headerActionId'), status: arg('status'),
  actions: asText<PlatformObject[]>(arg('actions')), footer_links: asText<PlatformObject[]>(arg('footerLinks')), scripts: asText<PlatformObject[]>(arg('scripts')),
  updated_at: arg('updatedAt'), deleted_at: arg('deletedAt'), view_head: arg('viewHead'), view_tail: arg('viewTail'),
});
type Keyed = { id: string; tenantId: string };
const ADD = typedStatement<Own & Keyed & { createdAt: Date }>()((arg) =>
  schema.insertInto('page_groups').values({ id: arg('id'), tenant_id: arg('tenantId'), created_at: arg('createdAt'), ...ownValues(arg) }),
);
const SAVE = typedStatement<Own & Keyed>()((arg) =>
  schema.updateTable('page_groups').set(ownValues(arg)).where('id', '=', arg('id')).where('tenant_id', '=', arg('tenantId')),
);

/** Groups whose defaults a process keeps: 10,000 entries of about 150 bytes. */
const DEFAULTS_KEPT = 10_000;

/**
 * Page groups with plain statements, as brands (sql-brand.repository.ts): each write also stores
 * the group's list item JSON (stored-views.ts). `pagesCount` is read from the counter rows and
 * never written: the database keeps it (Migration...20261123000000).
 */
@Injectable()
export class SqlPageGroupRepository extends PageGroupRepository {
  /**
   * Each group's default template, kept once read: it is fixed when the group is made (the
   * aggregate has no way to change it), and the page's own statement checks that the group is
   * still live. POST pages thus costs one round trip, not two (docs/performance-analysis.md).
   */
  private readonly defaults = new BoundedMemo<{ pageTemplateId: string | null }>(DEFAULTS_KEPT);

  constructor(private readonly em: EntityManager) {
    super();
  }

  async findActiveById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PageGroup | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a page group read for update');
    const [row] = await FIND_ACTIVE(options.forUpdate ? 'for update' : 'plain').rows(this.em, { id, tenantId });
    return row ? touched(toPageGroup(row)) : null;
  }

  async findDefaults(tenantId: string, id: string): Promise<{ pageTemplateId: string | null } | null> {
    const key = `${tenantId} ${id}`;
    const kept = this.defaults.get(key);
    if (kept) return kept;
    const [row] = await FIND_DEFAULTS.rows(this.em, { id, tenantId });
    if (!row) return null;
    const defaults = { pageTemplateId: row.page_template_id };
    this.defaults.set(key, defaults);
    return defaults;
  }

  async add(group: PageGroup): Promise<void> {
    await writeAggregates(this.em, [group], ADD, { id: group.id, tenantId: group.tenantId, createdAt: group.createdAt, ...ownOf(group) });
  }

  async save(group: PageGroup): Promise<void> {
    await writeAggregates(this.em, [group], SAVE, { id: group.id, tenantId: group.tenantId, ...ownOf(group) });
  }
}

function ownOf(group: PageGroup): Own {
  const view = storedPageGroupView(group);
  return {
    brandId: group.brandId, name: group.name, title: group.title, pageContext: group.pageContext, pageTemplateId: group.pageTemplateId,
    headerActionId: group.headerActionId, status: group.status,
    actions: JSON.stringify(group.actions), footerLinks: JSON.stringify(group.footerLinks), scripts: JSON.stringify(group.scripts),
    updatedAt: group.updatedAt, deletedAt: group.deletedAt, viewHead: view.head, viewTail: view.tail,
  };
}

type FoundRow = RowOf<ReturnType<typeof FIND_ACTIVE>>;

function toPageGroup(row: FoundRow): PageGroup {
  return PageGroup.restore({
    id: row.id,
    tenantId: row.tenant_id,
    brandId: row.brand_id,
    name: row.name,
    title: row.title,
    pageContext: row.page_context,
    pageTemplateId: row.page_template_id,
    headerActionId: row.header_action_id,
    status: row.status,
    pagesCount: row.pages_count ?? 0,
    actions: row.actions,
    footerLinks: row.footer_links,
    scripts: row.scripts,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
  });
}
