import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageQueries } from '../../../application/page/page-queries.port';
import {
  PageListItemView, PageVersionView, PageView, toPageListItemView, toPageVersionView, toPageView, toUtmParametersView, UTM_VALUES_PER_KIND, UtmParametersView,
} from '../../../application/page/page.view';
import { StatsRange } from '../../../domain/page/stats-range';
import { sessionsPerBucket, topUtmValues } from './page-stats.sql';
import { UTM_KINDS, UtmKind } from '../../../domain/page/page-session';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { JsonText } from '../../../application/shared/json-text';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { asText, statementVariants, type StoredColumns, typedStatement } from '../typed/statement';

// Timestamps come as text (the ORM's pool sets its own type parsers): made Dates here.
const fromPageRow = (row: StoredColumns<'pages', 'id' | 'page_group_id' | 'tenant_id' | 'created_at' | 'updated_at'>) => ({
  id: row.id, pageGroupId: row.page_group_id, tenantId: row.tenant_id, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at),
});

// A live group with no UTM value yet has no summary row (Migration20261125010000_utm_values_bounded).
const NO_UTM_VALUES: string = JSON.stringify(toUtmParametersView([]));

const LIST_BY_GROUP = statementVariants((from: 'after' | 'first') =>
  typedStatement<{ pageGroupId: string; tenantId: string; after: string; limit: number }>()((arg) =>
    schema
      .selectFrom('pages')
      .select(['id', 'page_group_id', 'tenant_id', 'created_at', 'updated_at'])
      .where('page_group_id', '=', arg('pageGroupId'))
      .where('tenant_id', '=', arg('tenantId'))
      .$if(from === 'after', (qb) => qb.where('id', '<', arg('after')))
      .orderBy('id', 'desc')
      .limit(arg('limit')),
  ),
);

// The kept JSON, read by primary key together with the group check.
const UTM_SUMMARY = typedStatement<{ pageGroupId: string; tenantId: string }>()((arg) =>
  schema
    .selectFrom('page_groups as g')
    .leftJoin('page_group_utm_summaries as s', 's.page_group_id', 'g.id')
    .select(['s.body', 's.generation', 's.body_generation'])
    .where('g.id', '=', arg('pageGroupId'))
    .where('g.tenant_id', '=', arg('tenantId'))
    .where('g.deleted_at', 'is', null),
);

// The most recently seen values of each kind, through page_group_utm_values_recent_idx: at most
// 5 × UTM_VALUES_PER_KIND rows whatever the group holds.
const RECENT_UTM_VALUES = typedStatement<{ pageGroupId: string; kinds: readonly UtmKind[] }>()((arg) =>
  schema
    .selectFrom(sql<{ kind: UtmKind }>`unnest(${arg('kinds')}::text[])`.as<'k'>(sql`k(kind)`))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('page_group_utm_values')
          .select('value')
          .where('page_group_id', '=', arg('pageGroupId'))
          .whereRef('kind', '=', 'k.kind')
          .orderBy('last_seen_at', 'desc')
          .limit(sql.lit(UTM_VALUES_PER_KIND))
          .as('v'),
      (join) => join.onTrue(),
    )
    .select(['k.kind', 'v.value']),
);

// Keeps a rendering unless a writer moved the generation on or holds the row (skipped, never waited for).
const KEEP_UTM_SUMMARY = typedStatement<{ pageGroupId: string; body: string; generation: string }>()((arg) =>
  schema
    .updateTable('page_group_utm_summaries as s')
    .set({ body: arg('body'), body_generation: asText<bigint>(arg('generation')) })
    .from(
      schema
        .selectFrom('page_group_utm_summaries')
        .select('page_group_id')
        .where('page_group_id', '=', arg('pageGroupId'))
        .where('generation', '=', asText<bigint>(arg('generation')))
        .forUpdate()
        .skipLocked()
        .as('unlocked'),
    )
    .whereRef('s.page_group_id', '=', 'unlocked.page_group_id'),
);

const FIND_IN_GROUP = typedStatement<{ pageId: string; tenantId: string; pageGroupId: string }>()((arg) =>
  schema
    .selectFrom('pages as p')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('page_versions')
          .select((v) => [v.fn.max('number').as('current'), sql<number>`count(*)::int`.as('count')])
          .whereRef('page_id', '=', 'p.id')
          .as('v'),
      (join) => join.onTrue(),
    )
    .select(['p.id', 'p.page_group_id', 'p.tenant_id', 'p.created_at', 'p.updated_at', 'p.page_template_id', 'p.supplementary_context', 'v.current', 'v.count'])
    .select((eb) =>
      eb.selectFrom('page_session_hours as h').select(sql<number>`coalesce(sum(h.sessions), 0)::int`.as('n')).whereRef('h.page_id', '=', 'p.id').as('sessions'),
    )
    .where('p.id', '=', arg('pageId'))
    .where('p.tenant_id', '=', arg('tenantId'))
    .where('p.page_group_id', '=', arg('pageGroupId')),
);

const IS_IN_GROUP = typedStatement<{ pageId: string; tenantId: string; pageGroupId: string }>()((arg) =>
  schema.selectFrom('pages').select(sql<number>`1`.as('one')).where('id', '=', arg('pageId')).where('tenant_id', '=', arg('tenantId')).where('page_group_id', '=', arg('pageGroupId')),
);

const LIST_VERSIONS = statementVariants((from: 'after' | 'first') =>
  typedStatement<{ pageId: string; tenantId: string; after: number; limit: number }>()((arg) =>
    schema
      .selectFrom('page_versions')
      .select(['id', 'number', 'page_template_id', 'supplementary_context', 'created_at'])
      .where('page_id', '=', arg('pageId'))
      .where('tenant_id', '=', arg('tenantId'))
      .$if(from === 'after', (qb) => qb.where('number', '<', arg('after')))
      .orderBy('number', 'desc')
      .limit(arg('limit')),
  ),
);

@Injectable()
export class SqlPageQueries extends PageQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async listByGroup(tenantId: string, pageGroupId: string, page: ListRequest): Promise<ListSlice<PageListItemView>> {
    const rows = await LIST_BY_GROUP(page.after ? 'after' : 'first').rows(this.em, { pageGroupId, tenantId, after: page.after ?? '', limit: page.limit + 1 });
    return toSlice(rows.map((row) => toPageListItemView(fromPageRow(row))), page.limit, (item) => item.pageId);
  }

  async utmParameters(tenantId: string, pageGroupId: string): Promise<JsonText<UtmParametersView> | null> {
    // Rendered again first when a value arrived since it was rendered (its generation moved on).
    const [row] = await UTM_SUMMARY.rows(this.em, { pageGroupId, tenantId });
    if (!row) return null;
    const { body, generation, body_generation } = row;
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
    const values = await RECENT_UTM_VALUES.rows(this.em, { pageGroupId, kinds: UTM_KINDS });
    const body = JSON.stringify(toUtmParametersView(values));
    await KEEP_UTM_SUMMARY.count(this.em, { pageGroupId, body, generation });
    return body;
  }

  async findInGroup(tenantId: string, pageGroupId: string, pageId: string): Promise<PageView | null> {
    const [row] = await FIND_IN_GROUP.rows(this.em, { pageId, tenantId, pageGroupId });
    if (!row) return null;
    return toPageView(
      { ...fromPageRow(row), pageTemplateId: row.page_template_id, supplementaryContext: row.supplementary_context },
      { currentVersion: row.current ?? 0, versionsCount: row.count, sessionsCount: row.sessions ?? 0 },
    );
  }

  async isInGroup(tenantId: string, pageGroupId: string, pageId: string): Promise<boolean> {
    return (await IS_IN_GROUP.rows(this.em, { pageId, tenantId, pageGroupId })).length > 0;
  }

  async listVersions(tenantId: string, pageId: string, page: ListRequest): Promise<ListSlice<PageVersionView>> {
    const after = page.after === undefined ? undefined : Number(page.after);
    const from = after !== undefined && Number.isInteger(after) ? 'after' : 'first';
    const rows = await LIST_VERSIONS(from).rows(this.em, { pageId, tenantId, after: after ?? 0, limit: page.limit + 1 });
    const versions = rows.map((row) => toPageVersionView({ id: row.id, number: row.number, pageTemplateId: row.page_template_id, supplementaryContext: row.supplementary_context, createdAt: new Date(row.created_at) }));
    return toSlice(versions, page.limit, (version) => String(version.number));
  }

  async stats(tenantId: string, pageId: string, range: StatsRange, top: number) {
    const [buckets, utm] = await Promise.all([sessionsPerBucket(this.em, tenantId, pageId, range), topUtmValues(this.em, tenantId, pageId, range, top)]);
    return { buckets, utm: utm.values, utmApproximate: utm.approximate };
  }
}
