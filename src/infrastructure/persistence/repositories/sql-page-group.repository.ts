import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroup, PageGroupStatus, PlatformObject } from '../../../domain/page-group/page-group';
import { PageGroupRepository } from '../../../domain/page-group/page-group-repository.port';
import { pagesCountOf } from '../stored/page-count.sql';
import { requireTransaction, sqlQuery, sqlRows } from '../connection/sql-statement';
import { touched } from '../connection/after-commit';
import { storedPageGroupView } from '../stored/stored-views';
import { writeAggregates } from '../outbox/outbox.writer';
import { BoundedMemo } from '../../memo/bounded-memo';

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
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** What a change may touch, the stored list item included. */
const OWN_COLUMNS = `brand_id, name, title, page_context, page_template_id, header_action_id, status, actions, footer_links, scripts,
  updated_at, deleted_at, view_head, view_tail`;
const READ_COLUMNS = `g.brand_id, g.name, g.title, g.page_context, g.page_template_id, g.header_action_id, g.status, g.actions,
  g.footer_links, g.scripts, g.updated_at, g.deleted_at`;

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
    const rows = await sqlRows<PageGroupRow>(
      this.em,
      `SELECT g.id, g.tenant_id, g.created_at, ${READ_COLUMNS}, ${pagesCountOf('g.id')} AS pages_count FROM page_groups g
       WHERE g.id = $1 AND g.tenant_id = $2 AND g.deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE OF g' : ''}`,
      [id, tenantId],
    );
    return rows.length === 0 ? null : touched(toPageGroup(rows[0]));
  }

  async findDefaults(tenantId: string, id: string): Promise<{ pageTemplateId: string | null } | null> {
    const key = `${tenantId} ${id}`;
    const kept = this.defaults.get(key);
    if (kept) return kept;
    const rows = await sqlRows<{ page_template_id: string | null }>(
      this.em,
      'SELECT page_template_id FROM page_groups WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL',
      [id, tenantId],
    );
    if (rows.length === 0) return null;
    const defaults = { pageTemplateId: rows[0].page_template_id };
    this.defaults.set(key, defaults);
    return defaults;
  }

  async add(group: PageGroup): Promise<void> {
    await writeAggregates(
      this.em,
      [group],
      `INSERT INTO page_groups (id, tenant_id, created_at, ${OWN_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::json, $12::json, $13::json, $14, $15, $16, $17)`,
      [group.id, group.tenantId, group.createdAt, ...this.ownFields(group)],
    );
  }

  async save(group: PageGroup): Promise<void> {
    await writeAggregates(
      this.em,
      [group],
      `UPDATE page_groups SET (${OWN_COLUMNS}) = ($1, $2, $3, $4, $5, $6, $7, $8::json, $9::json, $10::json, $11, $12, $13, $14)
       WHERE id = $15 AND tenant_id = $16`,
      [...this.ownFields(group), group.id, group.tenantId],
    );
  }

  /** The values of OWN_COLUMNS, in order. */
  private ownFields(group: PageGroup): unknown[] {
    const view = storedPageGroupView(group);
    return [
      group.brandId, group.name, group.title, group.pageContext, group.pageTemplateId, group.headerActionId, group.status,
      JSON.stringify(group.actions), JSON.stringify(group.footerLinks), JSON.stringify(group.scripts),
      group.updatedAt, group.deletedAt, view.head, view.tail,
    ];
  }
}

function toPageGroup(row: PageGroupRow): PageGroup {
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
