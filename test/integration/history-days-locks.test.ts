import { Client } from 'pg';
import { SqlHistoryDays } from '../../src/infrastructure/persistence/history/sql-history-days';
import { DAY_MS, dayStart } from '../../src/infrastructure/persistence/history/history-tables';
import { openTestOrm } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';

// Making the days ahead takes each table's lock and the locks of the tables its foreign keys name
// (a session's page, page group and tenant). A write that holds one of those and then needs a
// history table must never meet the upkeep in a lock cycle: PostgreSQL would end one of the two
// as a deadlock, and when that was the API's transaction the customer got a 500 (seen in CI on the
// first run after midnight, when the worker's start made the new day while pages were written).
const AHEAD = 20;
const dayName = (table: string, ms: number) => `${table}_p${new Date(dayStart(ms)).toISOString().slice(0, 10).replace(/-/g, '')}`;

describe('making the history days beside writes', () => {
  let db: { url: string; drop: () => Promise<void> };
  let writer: Client;
  let watcher: Client;
  beforeEach(async () => {
    db = await isolatedDatabase();
    writer = new Client({ connectionString: db.url });
    watcher = new Client({ connectionString: db.url });
    await Promise.all([writer.connect(), watcher.connect()]);
  });
  afterEach(async () => {
    await Promise.all([writer.end(), watcher.end()]);
    await db.drop();
  });

  it('never holds one table while it waits for another: a write that took the pages, then the events, goes through', async () => {
    const orm = await openTestOrm(db.url);
    try {
      const days = new SqlHistoryDays(orm);
      // The write a POST pages makes: its page first (ROW EXCLUSIVE, as an INSERT takes), then its event.
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE pages IN ROW EXCLUSIVE MODE');
      const making = days.makeUntil(new Date(Date.now() + AHEAD * DAY_MS)).then(
        () => null,
        (error: { code?: string }) => error,
      );
      // The upkeep comes to the sessions' days, whose foreign key needs the pages, and waits.
      let settled = false;
      void making.then(() => (settled = true));
      const waiting = async () =>
        (await watcher.query(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'pages'::regclass AND NOT granted`)).rows[0].n > 0;
      while (!settled && !(await waiting())) await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      // The write now needs the events' table: it is not held by the upkeep's wait.
      await writer.query('LOCK TABLE outbox_events IN ROW EXCLUSIVE MODE');
      await writer.query('COMMIT');
      // The upkeep either got the pages once the write ended, or gave the lock back (tried again next run); never a deadlock.
      const outcome = await making;
      expect(outcome === null ? 'made' : outcome.code).toMatch(/^(made|55P03)$/);
      await days.makeUntil(new Date(Date.now() + AHEAD * DAY_MS));
      const last = Date.now() + AHEAD * DAY_MS;
      for (const table of ['outbox_events', 'webhook_deliveries', 'webhook_delivery_attempts', 'event_feed', 'page_sessions']) {
        const { rows } = await watcher.query(`SELECT to_regclass($1) IS NOT NULL AS made`, [dayName(table, last)]);
        expect(rows[0].made).toBe(true);
      }
    } finally {
      await orm.close(true);
    }
  });
});
