import type { EntityManager } from '@mikro-orm/postgresql';
import { UTM_KINDS, type UtmKind } from '../../../domain/page/page-session';
import { UTM_TOP_CANDIDATES } from '../../../application/page/page.view';
import { StatsRange } from '../../../domain/page/stats-range';
import { sql } from 'kysely';
import { sqlRows } from '../connection/sql-statement';
import { schema } from '../typed/database';
import { statementVariants, typedStatement } from '../typed/statement';

// SQL text for TOP_UTM_VALUES, not a typed statement (decisions.md 184): it ranks each kind's
// candidates with window functions over two laterals and a UNION ALL; its plan (two index entries
// a candidate) was measured on this text, and a builder would be raw fragments in all but name.
// The sessions per bucket are a typed statement.
//
// A page's statistics from its counters (Migration20261125060000_page_versions_and_stats), never
// from its sessions: a 90-day range reads at most 2,160 hour rows, and at most two index entries
// for each of UTM_TOP_CANDIDATES values per kind, however many values the page has.

/** Of the tenant's page only: the counters have no tenant column, so the page is checked in the same statement (one probe). */
const ofTenant = (tenantParam: string) => `EXISTS (SELECT 1 FROM pages p WHERE p.id = $1 AND p.tenant_id = ${tenantParam})`;

/** Sessions per bucket: the page's hour rows, added up by UTC day for interval=day. */
const SESSIONS_PER_BUCKET = statementVariants((interval: StatsRange['interval']) =>
  typedStatement<{ pageId: string; from: Date; to: Date; tenantId: string }>()((arg) =>
    schema
      .selectFrom('page_session_hours')
      .select([(interval === 'day' ? sql<string>`date_trunc('day', hour, 'UTC')` : sql<string>`hour`).as('start'), sql<number>`sum(sessions)::int`.as('sessions')])
      .where('page_id', '=', arg('pageId'))
      .where('hour', '>=', arg('from'))
      .where('hour', '<', arg('to'))
      .where((eb) => eb.exists(eb.selectFrom('pages as p').select(sql<number>`1`.as('one')).where('p.id', '=', arg('pageId')).where('p.tenant_id', '=', arg('tenantId'))))
      .groupBy(sql`1`),
  ),
);

export async function sessionsPerBucket(em: EntityManager, tenantId: string, pageId: string, range: StatsRange): Promise<{ start: Date; sessions: number }[]> {
  const rows = await SESSIONS_PER_BUCKET(range.interval).rows(em, { pageId, from: range.from, to: range.to, tenantId });
  return rows.map((row) => ({ start: new Date(row.start), sessions: row.sessions }));
}

// The top values of each kind are chosen among its CANDIDATES values with the most sessions
// overall (page_utm_values_top_idx, in that order), never among all of them: visitors choose the
// values through their links, so a page may have any number, and a cost per value would be
// theirs to set. Each candidate's sessions in [from, to) are exact: its running total at its
// last hour before `to` minus the one before `from`; a bound after the value's last hour is its
// total, a bound at or before its first hour 0; only a bound inside its hours costs an index
// probe. The top `$4` of each kind, most sessions first, ties in code point order (value is
// COLLATE "C"). The candidate just past the bound (rank CANDIDATES + 1) comes back with its total
// only: no value left out has more sessions overall than it, which is what proves a list exact.

const runningTotalBefore = (bound: string) => `coalesce((SELECT r.total FROM page_utm_running r
    WHERE r.page_id = $1 AND r.kind = c.kind AND r.value = c.value AND r.hour < ${bound} ORDER BY r.hour DESC LIMIT 1), 0)`;
const TOP_UTM_VALUES = `
  WITH candidates AS (
    SELECT k.kind, c.value, c.first_hour, c.last_hour, c.total, c.rank
    FROM unnest($5::text[]) AS k(kind)
    CROSS JOIN LATERAL (
      SELECT v.value, v.first_hour, v.last_hour, v.total, row_number() OVER (ORDER BY v.total DESC, v.value) AS rank
      FROM page_utm_values v WHERE v.page_id = $1 AND v.kind = k.kind
      ORDER BY v.total DESC, v.value LIMIT ${UTM_TOP_CANDIDATES + 1}) c
    WHERE ${ofTenant('$6')}),
  counted AS (
    SELECT c.kind, c.value, s.sessions FROM candidates c
    CROSS JOIN LATERAL (SELECT (
        CASE WHEN c.last_hour < $3 THEN c.total ELSE ${runningTotalBefore('$3')} END
      - CASE WHEN c.first_hour >= $2 THEN 0 ELSE ${runningTotalBefore('$2')} END
      )::int AS sessions OFFSET 0) s
    WHERE c.rank <= ${UTM_TOP_CANDIDATES} AND c.last_hour >= $2 AND c.first_hour < $3),
  ranked AS (
    SELECT kind, value, sessions, row_number() OVER (PARTITION BY kind ORDER BY sessions DESC, value) AS rank FROM counted WHERE sessions > 0)
  SELECT kind, value, sessions, NULL::int AS outside FROM ranked WHERE rank <= $4
  UNION ALL
  SELECT kind, NULL, NULL, total FROM candidates WHERE rank = ${UTM_TOP_CANDIDATES + 1}
  ORDER BY kind, sessions DESC NULLS LAST, value`;

export interface TopUtmValues {
  values: { kind: UtmKind; value: string; sessions: number }[];
  /** Kinds whose list may lack a value: one past the candidates could have had more sessions in the range than the last listed. */
  approximate: UtmKind[];
}

export async function topUtmValues(em: EntityManager, tenantId: string, pageId: string, range: StatsRange, top: number): Promise<TopUtmValues> {
  const rows = await sqlRows<{ kind: UtmKind; value: string | null; sessions: number | null; outside: number | null }>(em, TOP_UTM_VALUES, [
    pageId, range.from, range.to, top, UTM_KINDS, tenantId,
  ]);
  const values = rows.filter((row) => row.value !== null).map((row) => ({ kind: row.kind, value: row.value!, sessions: row.sessions! }));
  // A list is exact when no value left out can reach it: the last listed value (the top-th) has
  // more sessions in the range than the largest total left out (a tie would be settled by the
  // value's name, which is not known). A kind with no value left out is exact whatever it lists.
  const approximate = rows
    .filter((row) => row.value === null)
    .filter((bound) => {
      const listed = values.filter((v) => v.kind === bound.kind);
      return listed.length < top || listed[listed.length - 1].sessions <= bound.outside!;
    })
    .map((bound) => bound.kind);
  return { values, approximate };
}
