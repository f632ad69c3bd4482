import { Client } from 'pg';
import { rows } from './platform';
import { TestApp } from './test-app';
import { testDatabaseUrl } from './test-database-url';

/**
 * Holds every counter row of a page group from a session of its own, so page creations in the
 * group wait (really in flight, in PostgreSQL) until `release()`.
 */
export async function holdPageCreations(t: TestApp, pageGroupId: string): Promise<{ release: () => Promise<void> }> {
  const client = new Client({ connectionString: t.orm.config.get('clientUrl') ?? testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM page_group_counters WHERE page_group_id = $1 FOR UPDATE', [pageGroupId]);
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Statements of the database waiting for a lock on page counters (page creations held up). */
export const waitingOnCounters = (t: TestApp) =>
  rows<{ n: number }>(
    t,
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%UPDATE page_group_counters%'`,
  ).then((r) => r[0].n);
