import { Client } from 'pg';
import { TestApp } from './test-app';
import { testDatabaseUrl } from './test-database-url';

/**
 * Holds every counter row of a page group from a session of its own, so page creations in the
 * group wait (really in flight, in PostgreSQL) until `release()`. `blocked()` counts the sessions
 * waiting on this hold, and only those: other tests share the database and may be waiting on
 * page counters of their own.
 */
export async function holdPageCreations(t: TestApp, pageGroupId: string): Promise<{ release: () => Promise<void>; blocked: () => Promise<number> }> {
  const client = new Client({ connectionString: t.orm.config.get('clientUrl') ?? testDatabaseUrl() });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const holder = rows[0].pid;
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM page_group_counters WHERE page_group_id = $1 FOR UPDATE', [pageGroupId]);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      await client.query('COMMIT');
      await client.end();
    },
    // From a session of its own: inside the holder's transaction pg_stat_activity would be the
    // snapshot of its first read (stats_fetch_consistency), never changing.
    blocked: async () => {
      const probe = new Client({ connectionString: t.orm.config.get('clientUrl') ?? testDatabaseUrl() });
      await probe.connect();
      try {
        // Waiters on one row queue behind each other: the holder blocks the first, the first the next.
        const result = await probe.query<{ n: number }>(
          `WITH RECURSIVE blocked(pid) AS (
             SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))
             UNION
             SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY(pg_blocking_pids(a.pid)))
           SELECT count(*)::int AS n FROM blocked`,
          [holder],
        );
        return result.rows[0].n;
      } finally {
        await probe.end();
      }
    },
  };
}
