import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageQueries } from '../../../application/page/page-queries.port';
import {
  PageListItemView, PageVersionView, PageView, toPageListItemView, toPageVersionView, toPageView, toUtmParametersView, UTM_VALUES_PER_KIND, UtmParametersView,
} from '../../../application/page/page.view';
import { StatsRange } from '../../../domain/page/stats-range';
import { sessionsPerBucket, topUtmValues } from './sql-page-stats';
import { UTM_KINDS, UtmKind } from '../../../domain/page/page-session';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { JsonText } from '../../../application/shared/json-text';
import { sqlParams, sqlRows } from '../connection/sql-statement';

interface PageRow {
  id: string;
  page_group_id: string;
  tenant_id: string;
  created_at: string;
  updated_at: string;
}

interface PageVersionRow {
  id: string;
  number: number;
  page_template_id: string | null;
  supplementary_context: string | null;
  created_at: string;
}

// Timestamps come as text (the ORM's pool sets its own type parsers): made Dates here.
const fromPageRow = (row: PageRow) => ({ id: row.id, pageGroupId: row.page_group_id, tenantId: row.tenant_id, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });

// A live group with no UTM value yet has no summary row (Migration20261125010000_utm_values_bounded).
const NO_UTM_VALUES: string = JSON.stringify(toUtmParametersView([]));

// The most recently seen values of each kind, through page_group_utm_values_recent_idx: at most
// 5 × UTM_VALUES_PER_KIND rows whatever the group holds.
const RECENT_UTM_VALUES = `
  SELECT k.kind, v.value FROM unnest($2::text[]) AS k(kind)
  CROSS JOIN LATERAL (
    SELECT value FROM page_group_utm_values
    WHERE page_group_id = $1 AND kind = k.kind
    ORDER BY last_seen_at DESC LIMIT ${UTM_VALUES_PER_KIND}) v`;

@Injectable()
export class SqlPageQueries extends PageQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async listByGroup(tenantId: string, pageGroupId: string, page: ListRequest): Promise<ListSlice<PageListItemView>> {
    const p = sqlParams();
    const rows = await sqlRows<PageRow>(
      this.em,
      `SELECT id, page_group_id, tenant_id, created_at, updated_at
       FROM pages WHERE page_group_id = ${p(pageGroupId)} AND tenant_id = ${p(tenantId)} ${page.after ? `AND id < ${p(page.after)}` : ''} ORDER BY id DESC LIMIT ${p(page.limit + 1)}`,
      p.values,
    );
    return toSlice(rows.map((row) => toPageListItemView(fromPageRow(row))), page.limit, (item) => item.pageId);
  }

  async utmParameters(tenantId: string, pageGroupId: string): Promise<JsonText<UtmParametersView> | null> {
    // The kept JSON, read by primary key together with the group check; rendered again first when
    // a value arrived since it was rendered (its generation moved on).
    const rows = await sqlRows<{ body: string | null; generation: string | null; body_generation: string | null }>(
      this.em,
      `SELECT s.body, s.generation, s.body_generation FROM page_groups g LEFT JOIN page_group_utm_summaries s ON s.page_group_id = g.id
       WHERE g.id = $1 AND g.tenant_id = $2 AND g.deleted_at IS NULL`,
      [pageGroupId, tenantId],
    );
    if (rows.length === 0) return null;
    const { body, generation, body_generation } = rows[0];
    if (generation === null) return new JsonText(NO_UTM_VALUES);
    if (body !== null && body_generation === generation) return new JsonText(body);
    return new JsonText(await this.renderUtmSummary(pageGroupId, generation));
  }

  /**
   * Renders the group's summary from its recent values and keeps it, unless a writer moved the
   * generation on meanwhile or is moving it now (its row lock is skipped, never waited for): the
   * next read then renders again, with the newer values. Values committed after `generation` was
   * read are either in this rendering or in a later generation.
   */
  private async renderUtmSummary(pageGroupId: string, generation: string): Promise<string> {
    const values = await sqlRows<{ kind: UtmKind; value: string }>(this.em, RECENT_UTM_VALUES, [pageGroupId, UTM_KINDS]);
    const body = JSON.stringify(toUtmParametersView(values));
    await sqlRows(
      this.em,
      `UPDATE page_group_utm_summaries s SET body = $2, body_generation = $3
       FROM (SELECT page_group_id FROM page_group_utm_summaries WHERE page_group_id = $1 AND generation = $3 FOR UPDATE SKIP LOCKED) unlocked
       WHERE s.page_group_id = unlocked.page_group_id`,
      [pageGroupId, body, generation],
    );
    return body;
  }

  async findInGroup(tenantId: string, pageGroupId: string, pageId: string): Promise<PageView | null> {
    const rows = await sqlRows<PageRow & { page_template_id: string | null; supplementary_context: string | null; current: number; count: number; sessions: number }>(
      this.em,
      `SELECT p.id, p.page_group_id, p.tenant_id, p.created_at, p.updated_at, p.page_template_id, p.supplementary_context, v.current, v.count,
         (SELECT coalesce(sum(h.sessions), 0)::int FROM page_session_hours h WHERE h.page_id = p.id) AS sessions
       FROM pages p, LATERAL (SELECT max(number) AS current, count(*)::int AS count FROM page_versions WHERE page_id = p.id) v
       WHERE p.id = $1 AND p.tenant_id = $2 AND p.page_group_id = $3`,
      [pageId, tenantId, pageGroupId],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    return toPageView(
      { ...fromPageRow(row), pageTemplateId: row.page_template_id, supplementaryContext: row.supplementary_context },
      { currentVersion: row.current, versionsCount: row.count, sessionsCount: row.sessions },
    );
  }

  async isInGroup(tenantId: string, pageGroupId: string, pageId: string): Promise<boolean> {
    const rows = await sqlRows(this.em, 'SELECT 1 FROM pages WHERE id = $1 AND tenant_id = $2 AND page_group_id = $3', [pageId, tenantId, pageGroupId]);
    return rows.length > 0;
  }

  async listVersions(tenantId: string, pageId: string, page: ListRequest): Promise<ListSlice<PageVersionView>> {
    const p = sqlParams();
    const after = page.after === undefined ? undefined : Number(page.after);
    const rows = await sqlRows<PageVersionRow>(
      this.em,
      `SELECT id, number, page_template_id, supplementary_context, created_at
       FROM page_versions WHERE page_id = ${p(pageId)} AND tenant_id = ${p(tenantId)} ${after !== undefined && Number.isInteger(after) ? `AND number < ${p(after)}` : ''}
       ORDER BY number DESC LIMIT ${p(page.limit + 1)}`,
      p.values,
    );
    const versions = rows.map((row) => toPageVersionView({ id: row.id, number: row.number, pageTemplateId: row.page_template_id, supplementaryContext: row.supplementary_context, createdAt: new Date(row.created_at) }));
    return toSlice(versions, page.limit, (version) => String(version.number));
  }

  async stats(tenantId: string, pageId: string, range: StatsRange, top: number) {
    const [buckets, utm] = await Promise.all([sessionsPerBucket(this.em, tenantId, pageId, range), topUtmValues(this.em, tenantId, pageId, range, top)]);
    return { buckets, utm: utm.values, utmApproximate: utm.approximate };
  }
}
