// SQL text, not typed statements (decisions.md 184): a session's counters are upserts of rows
// made from parameter arrays (unnest), with CTEs that write several tables in one statement and
// ON CONFLICT … DO UPDATE … WHERE; their lock order and snapshots are what keeps the counts exact.

/**
 * The page's counters for its statistics (Migration20261125060000_page_versions_and_stats), in
 * the session's transaction, so the statistics count exactly the sessions committed. First each
 * UTM value's row of the page is made or counted, which locks it (in a fixed order, so two
 * recordings cannot deadlock): the running totals of one value are then written one session after the other, and
 * the next statement, with a snapshot taken after the lock, sees every earlier session's total.
 * A value of a busy page is thereby held from this statement to the commit; so is the page's hour
 * row. Recording is the platform's side, far from the rate at which that would matter.
 */
export const LOCK_UTM_VALUES = `
    INSERT INTO page_utm_values (page_id, kind, value, first_hour, last_hour, total)
    SELECT $1, kind, value, date_trunc('hour', $4::timestamptz, 'UTC'), date_trunc('hour', $4::timestamptz, 'UTC'), 1
    FROM unnest($2::text[], $3::text[]) AS u(kind, value) ORDER BY kind, value
    ON CONFLICT (page_id, kind, value) DO UPDATE SET total = page_utm_values.total + 1,
      first_hour = least(page_utm_values.first_hour, excluded.first_hour), last_hour = greatest(page_utm_values.last_hour, excluded.last_hour)`;

/**
 * One more session in the page's hour, and in each value's running total: its row for the
 * session's hour (the total before it plus one) and every later row (a session recorded for an
 * earlier hour than the newest).
 */
export const COUNT_SESSION = `
    WITH p AS (SELECT $1::text AS page_id, date_trunc('hour', $2::timestamptz, 'UTC') AS hour),
    utm AS (SELECT * FROM unnest($3::text[], $4::text[]) AS u(kind, value)),
    hours AS (
      INSERT INTO page_session_hours (page_id, hour, sessions) SELECT page_id, hour, 1 FROM p
      ON CONFLICT (page_id, hour) DO UPDATE SET sessions = page_session_hours.sessions + 1 RETURNING 1),
    running AS (
      INSERT INTO page_utm_running (page_id, kind, value, hour, total)
      SELECT p.page_id, utm.kind, utm.value, p.hour, 1 + coalesce((
        SELECT r.total FROM page_utm_running r
        WHERE r.page_id = p.page_id AND r.kind = utm.kind AND r.value = utm.value AND r.hour < p.hour ORDER BY r.hour DESC LIMIT 1), 0)
      FROM p, utm
      ON CONFLICT (page_id, kind, value, hour) DO UPDATE SET total = page_utm_running.total + 1 RETURNING 1),
    later AS (
      UPDATE page_utm_running r SET total = r.total + 1 FROM p, utm
      WHERE r.page_id = p.page_id AND r.kind = utm.kind AND r.value = utm.value AND r.hour > p.hour RETURNING 1)
    SELECT (SELECT count(*) FROM hours) + (SELECT count(*) FROM running) + (SELECT count(*) FROM later) AS written`;

/**
 * Keeps the group's distinct values current, so reading them never scans the sessions: one index
 * upsert per value, whatever the group holds (decisions.md 64). A value's `last_seen_at` moves at
 * most hourly, so a busy value does not rewrite its row on every visit. When a value is new or
 * moved, the group summary's generation moves on, and the next read renders it again.
 */
export const RECORD_UTM_VALUES = `
    WITH seen (kind, value) AS (SELECT * FROM unnest($1::text[], $2::text[])),
    p AS (SELECT $3::text AS page_group_id, $4::timestamptz AS seen_at),
    moved AS (
      INSERT INTO page_group_utm_values (page_group_id, kind, value, last_seen_at)
      SELECT p.page_group_id, seen.kind, seen.value, p.seen_at FROM seen, p
      ON CONFLICT (page_group_id, kind, value) DO UPDATE SET last_seen_at = excluded.last_seen_at
        WHERE page_group_utm_values.last_seen_at < excluded.last_seen_at - interval '1 hour'
      RETURNING 1)
    INSERT INTO page_group_utm_summaries (page_group_id, generation)
    SELECT page_group_id, 1 FROM p WHERE EXISTS (SELECT 1 FROM moved)
    ON CONFLICT (page_group_id) DO UPDATE SET generation = page_group_utm_summaries.generation + 1`;
