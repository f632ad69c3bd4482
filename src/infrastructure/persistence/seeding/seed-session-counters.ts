import { EntityManager } from '@mikro-orm/postgresql';
import type { ProgressListener } from '../../../application/seed/bulk-seeder.port';
import { sqlQuery } from '../connection/sql-statement';

// SQL text (decisions.md 184): set-based statements over every seeded session at once.

/**
 * The statistics' counters of the seeded pages, as recording each session would have left
 * them, from their sessions in one pass (running totals by a window over each value's hours).
 * Run in one transaction, for the table of hourly counts it drops at its commit.
 */
export async function countSeededSessions(em: EntityManager, pageIds: string[], onProgress: ProgressListener): Promise<void> {
  onProgress('session counters', 0, 3);
  await sqlQuery(em,
    `INSERT INTO page_session_hours (page_id, hour, sessions)
     SELECT page_id, date_trunc('hour', created_at, 'UTC'), count(*) FROM page_sessions WHERE page_id = ANY($1::text[]) GROUP BY 1, 2`,
    [pageIds],
  );
  onProgress('session counters', 1, 3);
  await sqlQuery(em,
    `CREATE TEMPORARY TABLE seeded_utm_hours ON COMMIT DROP AS
     SELECT s.page_id, u.kind, u.value, date_trunc('hour', s.created_at, 'UTC') AS hour, count(*) AS sessions
     FROM page_sessions s
     CROSS JOIN LATERAL (VALUES ('campaign', s.utm_campaign), ('content', s.utm_content), ('medium', s.utm_medium), ('source', s.utm_source), ('term', s.utm_term)) AS u(kind, value)
     WHERE s.page_id = ANY($1::text[]) AND u.value IS NOT NULL GROUP BY 1, 2, 3, 4`,
    [pageIds],
  );
  onProgress('session counters', 2, 3);
  await sqlQuery(em,
    `INSERT INTO page_utm_values (page_id, kind, value, first_hour, last_hour, total)
     SELECT page_id, kind, value, min(hour), max(hour), sum(sessions) FROM seeded_utm_hours GROUP BY 1, 2, 3`,
  );
  await sqlQuery(em,
    `INSERT INTO page_utm_running (page_id, kind, value, hour, total)
     SELECT page_id, kind, value, hour, sum(sessions) OVER (PARTITION BY page_id, kind, value ORDER BY hour) FROM seeded_utm_hours`,
  );
  onProgress('session counters', 3, 3);
}
