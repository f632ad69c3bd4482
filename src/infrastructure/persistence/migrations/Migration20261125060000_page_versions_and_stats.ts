import { Migration } from '@mikro-orm/migrations';

// Issue 21: a page's versions carry their content, and a page's sessions are counted as they are
// recorded, so that its statistics never scan its sessions (decisions.md 79).
// - page_versions gets the template and supplementary context of each version; the versions that
//   exist take their page's (the only content recorded until now).
// - page_session_hours: sessions per page and UTC hour. A day is the sum of its 24 hours.
// - page_utm_values: the distinct UTM values of each page, each with its first and last hour and
//   its total of sessions (what the top values are chosen from; its row is also what a recording
//   locks, so that the running totals of a value are written one session after the other).
// - page_utm_running: for each value, its running total of sessions at the end of each hour in
//   which it was seen. The sessions of a value in [from, to) are the total at its last hour before
//   `to` minus the total at its last hour before `from`; a bound past the value's last hour or
//   before its first needs no probe (its total, or 0), so a range up to now reads one row per
//   value, and at most two index probes. The unique index carries the total (INCLUDE).
// Each is written in the session's own transaction and filled here from the sessions that exist.
export class Migration20261125060000_page_versions_and_stats extends Migration {
  override name = 'Migration20261125060000_page_versions_and_stats';

  override up(): void {
    this.addSql(`
      ALTER TABLE page_versions
        ADD COLUMN page_template_id text COLLATE "C" REFERENCES templates (id),
        ADD COLUMN supplementary_context text CHECK (char_length(supplementary_context) BETWEEN 1 AND 10000)`);
    this.addSql(`
      UPDATE page_versions v SET page_template_id = p.page_template_id, supplementary_context = p.supplementary_context
        FROM pages p WHERE p.id = v.page_id`);

    this.addSql(`
      CREATE TABLE page_session_hours (
        page_id text COLLATE "C" NOT NULL REFERENCES pages (id),
        hour timestamptz NOT NULL,
        sessions integer NOT NULL CHECK (sessions > 0)
      )`);
    this.addSql(`CREATE UNIQUE INDEX page_session_hours_key ON page_session_hours (page_id, hour) INCLUDE (sessions)`);
    this.addSql(`
      CREATE TABLE page_utm_values (
        page_id text COLLATE "C" NOT NULL REFERENCES pages (id),
        kind text NOT NULL CHECK (kind IN ('campaign', 'content', 'medium', 'source', 'term')),
        value text COLLATE "C" NOT NULL,
        first_hour timestamptz NOT NULL,
        last_hour timestamptz NOT NULL,
        total integer NOT NULL CHECK (total > 0),
        PRIMARY KEY (page_id, kind, value)
      )`);
    this.addSql(`
      CREATE TABLE page_utm_running (
        page_id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        value text COLLATE "C" NOT NULL,
        hour timestamptz NOT NULL,
        total integer NOT NULL CHECK (total > 0),
        FOREIGN KEY (page_id, kind, value) REFERENCES page_utm_values (page_id, kind, value)
      )`);
    this.addSql(`CREATE UNIQUE INDEX page_utm_running_key ON page_utm_running (page_id, kind, value, hour) INCLUDE (total)`);

    this.addSql(`
      INSERT INTO page_session_hours (page_id, hour, sessions)
        SELECT page_id, date_trunc('hour', created_at, 'UTC'), count(*) FROM page_sessions GROUP BY 1, 2`);
    const hourly = `
      SELECT s.page_id, u.kind, u.value, date_trunc('hour', s.created_at, 'UTC') AS hour, count(*) AS sessions
      FROM page_sessions s
      CROSS JOIN LATERAL (VALUES ('campaign', s.utm_campaign), ('content', s.utm_content), ('medium', s.utm_medium), ('source', s.utm_source), ('term', s.utm_term)) AS u(kind, value)
      WHERE u.value IS NOT NULL GROUP BY 1, 2, 3, 4`;
    this.addSql(`
      INSERT INTO page_utm_values (page_id, kind, value, first_hour, last_hour, total)
        SELECT page_id, kind, value, min(hour), max(hour), sum(sessions) FROM (${hourly}) h GROUP BY 1, 2, 3`);
    this.addSql(`
      INSERT INTO page_utm_running (page_id, kind, value, hour, total)
        SELECT page_id, kind, value, hour, sum(sessions) OVER (PARTITION BY page_id, kind, value ORDER BY hour) FROM (${hourly}) h`);
  }
}
