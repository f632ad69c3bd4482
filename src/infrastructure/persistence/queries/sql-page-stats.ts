import type { EntityManager } from '@mikro-orm/postgresql';
import type { UtmKind } from '../../../domain/page/page-session';
import { StatsRange } from '../../../domain/page/stats-range';
import { sqlRows } from '../sql-statement';

// A page's statistics from its counters (Migration20261125060000_page_versions_and_stats), never
// from its sessions: a 90-day range reads at most 2,160 hour rows, and two index entries per UTM
// value of the page.

/** Sessions per bucket: the page's hour rows, added up by UTC day for interval=day. */
export async function sessionsPerBucket(em: EntityManager, pageId: string, range: StatsRange): Promise<{ start: Date; sessions: number }[]> {
  const bucket = range.interval === 'day' ? `date_trunc('day', hour, 'UTC')` : 'hour';
  const rows = await sqlRows<{ start: Date; sessions: number }>(
    em,
    `SELECT ${bucket} AS start, sum(sessions)::int AS sessions FROM page_session_hours
     WHERE page_id = $1 AND hour >= $2 AND hour < $3 GROUP BY 1`,
    [pageId, range.from, range.to],
  );
  return rows.map((row) => ({ start: new Date(row.start), sessions: row.sessions }));
}

// Each value's sessions in [from, to): its running total at its last hour before `to` minus the
// one before `from`. A bound after the value's last hour is its total, a bound at or before its
// first hour 0; only a bound inside its hours costs an index probe. The top `$4` of each kind,
// most sessions first, ties in code point order (value is COLLATE "C"); zeros rank last.
const runningTotalBefore = (bound: string) => `coalesce((SELECT r.total FROM page_utm_running r
    WHERE r.page_id = v.page_id AND r.kind = v.kind AND r.value = v.value AND r.hour < ${bound} ORDER BY r.hour DESC LIMIT 1), 0)`;
const TOP_UTM_VALUES = `
  SELECT kind, value, sessions FROM (
    SELECT v.kind, v.value, s.sessions, row_number() OVER (PARTITION BY v.kind ORDER BY s.sessions DESC, v.value) AS rank
    FROM page_utm_values v
    CROSS JOIN LATERAL (SELECT (
        CASE WHEN v.last_hour < $3 THEN v.total WHEN v.first_hour >= $3 THEN 0 ELSE ${runningTotalBefore('$3')} END
      - CASE WHEN v.last_hour < $2 THEN v.total WHEN v.first_hour >= $2 THEN 0 ELSE ${runningTotalBefore('$2')} END
      )::int AS sessions OFFSET 0) s
    WHERE v.page_id = $1) ranked
  WHERE sessions > 0 AND rank <= $4 ORDER BY kind, rank`;

export function topUtmValues(em: EntityManager, pageId: string, range: StatsRange, top: number): Promise<{ kind: UtmKind; value: string; sessions: number }[]> {
  return sqlRows(em, TOP_UTM_VALUES, [pageId, range.from, range.to, top]);
}
