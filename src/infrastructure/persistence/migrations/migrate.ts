import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { PARTITIONING_MIGRATION, prepareHistoryPartitioning } from '../history/history-bound';

// Any number of processes (API, worker, CLI, a rolling deploy) may start at once on an empty or
// newly upgraded database. They take turns under one session-level advisory lock, held on a
// connection of its own: the first applies what is pending, the others wait and then find nothing
// left to apply, instead of racing on CREATE TABLE and exiting. The key is this project's and
// fixed: two deployments sharing a database must take the same lock.
export const MIGRATION_LOCK_KEY = 7_264_011_803_170_001n;

export interface MigrationRun {
  /** The names applied by this process, in order (empty when another process had applied them). */
  applied: string[];
  /** How long this process waited for the lock, in milliseconds. */
  waitedMs: number;
}

/** Applies pending migrations under the migration lock; returns the names applied, in order. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  return (await migrateLocked(orm)).applied;
}

export async function migrateLocked(orm: MikroORM): Promise<MigrationRun> {
  const lock = new Client({ connectionString: orm.config.get('clientUrl') });
  // The lock's connection sits idle while the migrations run on the ORM's pool, and a connection
  // cut then reaches it as an 'error' event, which without a listener ends the process with a
  // stack (a worker restarted during a database cut died so in the soak). Kept here, the cut
  // fails the migration run instead: the lock went with the session, so what ran under it is not
  // reported as done, and the process fails to start and is started again.
  let lost: Error | undefined;
  lock.on('error', (error) => (lost ??= error));
  await lock.connect();
  try {
    const asked = performance.now();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    const waitedMs = Math.round(performance.now() - asked);
    try {
      const pending = (await orm.migrator.getPending()).map((migration) => migration.name);
      if (pending.includes(PARTITIONING_MIGRATION)) await prepareHistoryPartitioning(async (sql) => (await lock.query(sql)).rows);
      const applied = await orm.migrator.up();
      if (lost) throw lost;
      return { applied: applied.map((migration) => migration.name), waitedMs };
    } finally {
      if (!lost) await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    // Closing the connection also releases the lock if the unlock above could not be sent.
    await lock.end();
  }
}
