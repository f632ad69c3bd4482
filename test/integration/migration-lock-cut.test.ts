import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { MIGRATION_LOCK_KEY, migrateLocked } from '../../src/infrastructure/persistence/migrations/migrate';
import { eventually } from '../support/eventually';
import { proxiedTestDatabase } from '../support/proxied-test-database';
import { testDatabaseUrl } from '../support/test-database-url';

// The migration lock is held on a connection of its own, idle while the migrations run. A soak
// under chaos saw a worker, restarted during a database cut, die with a stack: the cut reached
// that idle connection as an 'error' event nobody listened to. Real fault: the ORM and the lock
// reach PostgreSQL through a loopback proxy, and the cut comes while the lock is held and the
// migrator waits (a session of the test holds the migrations table, so it waits for as long as
// the test needs).
describe('a database cut while the migration lock is held', () => {
  it('fails the migration run (the process can start again), and nothing is left to crash it', async () => {
    const { proxy, url } = await proxiedTestDatabase();
    const orm = await MikroORM.init(createOrmConfig(url, 2));
    const blocker = new Client({ connectionString: testDatabaseUrl() });
    await blocker.connect();
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on('uncaughtException', onCrash);
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE');
      const run = migrateLocked(orm);
      run.catch(() => {}); // awaited below
      // The lock granted to one of the proxy's sessions (pg_locks shows a bigint key's upper half
      // as classid), and a statement waiting on the table.
      const key = (MIGRATION_LOCK_KEY >> 32n).toString();
      await eventually(
        async () =>
          (
            await blocker.query<{ held: boolean; waiting: boolean }>(
              `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::bigint = $1::bigint) AS held,
                      EXISTS (SELECT 1 FROM pg_locks WHERE relation = 'schema_migrations'::regclass AND NOT granted) AS waiting`,
              [key],
            )
          ).rows[0],
        (locks) => locks.held && locks.waiting,
      );
      await proxy.stop();
      await expect(run).rejects.toThrow();
      // One turn of the loop for any late 'error' event to land.
      await new Promise((resolve) => setImmediate(resolve));
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
      await blocker.query('ROLLBACK').catch(() => {});
      await blocker.end();
      await orm.close(true);
      await proxy.stop();
    }
  });
});
