import { Client } from 'pg';
import { RollHistoryDays } from '../../src/application/webhook/history/roll-history-days.use-case';
import { typeIdLowerBound } from '../../src/domain/shared/type-id';
import { SqlHistoryDays } from '../../src/infrastructure/persistence/history/sql-history-days';
import { DAY_MS, dayStart, eventIdCeiling } from '../../src/infrastructure/persistence/history/history-tables';
import { deliveryLogStatement } from '../../src/infrastructure/persistence/queries/sql-webhook-subscription.queries';
import { CLAIM_ATTEMPTS_SQL } from '../../src/infrastructure/persistence/webhooks/delivery-attempts.sql';
import { STALLED_TURNS_SQL } from '../../src/infrastructure/persistence/webhooks/delivery-turns.sql';
import { PRICE_OUT_SORTS_SQL } from '../../src/infrastructure/persistence/connection/index-walk';
import { STRANDED_SQL } from '../../src/infrastructure/persistence/webhooks/stranded-deliveries.sql';
import { openTestOrm } from '../support/database';
import { FixedClock } from '../support/fakes/fixed-clock';
import { isolatedDatabase } from '../support/isolated-database';

const NOW = Date.now();
const TODAY = dayStart(NOW);

let made = 0;
/**
 * An id made at `ms`, unique in this file. Not newTypeId: a process's ids never go back in time
 * (UUIDv7's monotonic counter), so once a test has made one two days ahead, every id after it
 * would be two days ahead too, whatever time it asked for.
 */
const idAt = (prefix: 'evt' | 'whatt', ms: number) => `${typeIdLowerBound(prefix, ms).slice(0, -6)}${String(++made).padStart(6, '0')}`;

/** One event with one delivery (in `status`) and its first attempt, the event made at `atMs`. */
async function seedEvent(pg: Client, key: string, atMs: number, status: string): Promise<string> {
  const eventId = idAt('evt', atMs);
  await pg.query(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at) VALUES ($1, 'tenant_days', 'page.version.created', '{}', now(), now())`, [eventId]);
  await pg.query(
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, finished_at)
     VALUES ($1, 'tenant_days', 'whsub_days', $2, 'page.version.created', $3, 1, now(), now(), now(), CASE WHEN $3 = 'pending' THEN NULL ELSE now() END)`,
    [`whdlv_${key}`, eventId, status],
  );
  await pg.query(
    `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
     VALUES ($1, 'tenant_days', $2, 'whsub_days', $3, 'page.version.created', 1, 204, 3, now())`,
    [`whatt_${key}`, `whdlv_${key}`, eventId],
  );
  return eventId;
}

async function seedOwners(pg: Client) {
  await pg.query(`INSERT INTO tenants (id, name, created_at) VALUES ('tenant_days', 'days', now())`);
  await pg.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     VALUES ('whsub_days', 'tenant_days', 'https://hooks.example.com/d', '{page.version.created}', true, 'x', now(), now())`,
  );
}

describe('history kept by day (partitions)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pg: Client;
  beforeEach(async () => {
    db = await isolatedDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    await seedOwners(pg);
  });
  afterEach(async () => {
    await pg.end();
    await db.drop();
  });

  const partitions = async (table: string) =>
    (await pg.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, [table])).rows.map((r) => r.relname);
  const ids = async (table: string) => (await pg.query(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);

  it('drops whole days past the retention with their deliveries and attempts, keeps a day with a delivery not finished, and makes days ahead', async () => {
    const old = await seedEvent(pg, 'old', NOW - 45 * DAY_MS, 'delivered');
    const today = await seedEvent(pg, 'today', NOW, 'pending');
    const tomorrow = await seedEvent(pg, 'tomorrow', NOW + DAY_MS, 'delivered');
    const orm = await openTestOrm(db.url);
    try {
      // Thirty-one days on, with a retention of 30: the days before tomorrow have expired.
      const later = new FixedClock(new Date(NOW + 31 * DAY_MS));
      const roll = new RollHistoryDays(new SqlHistoryDays(orm), { retentionDays: 30, sessionRetentionDays: null }, later);
      const first = await roll.execute();
      const todayName = `_p${new Date(TODAY).toISOString().slice(0, 10).replace(/-/g, '')}`;
      expect(first.kept).toEqual([`outbox_events${todayName}`]);
      expect(first.statements).toEqual(
        ['webhook_delivery_attempts', 'webhook_deliveries', 'event_feed', 'outbox_events'].flatMap((t) => [`ALTER TABLE ${t} DETACH PARTITION ${t}_before CONCURRENTLY`, `DROP TABLE IF EXISTS ${t}_before`]),
      );
      expect(first.statements.join('\n')).not.toMatch(/DELETE/);
      // 45 days ahead of the real clock (31 + 14) now exist, for each of the five tables.
      expect(first.made).toHaveLength(5 * 31);
      expect(await partitions('event_feed')).toContain(`event_feed_p${new Date(TODAY + 45 * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`);
      expect(await partitions('page_sessions')).toContain(`page_sessions_p${new Date(TODAY + 45 * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`);
      expect(await ids('outbox_events')).toEqual([today, tomorrow].sort());
      expect(await ids('webhook_deliveries')).toEqual(['whdlv_today', 'whdlv_tomorrow']);
      expect(await ids('webhook_delivery_attempts')).toEqual(['whatt_today', 'whatt_tomorrow']);
      expect(old < today).toBe(true);

      // Once its last delivery ends, the kept day goes too.
      await pg.query(`UPDATE webhook_deliveries SET status = 'delivered', finished_at = now() WHERE id = 'whdlv_today'`);
      const second = await roll.execute();
      expect(second.kept).toEqual([]);
      expect(second.made).toEqual([]);
      expect(await ids('outbox_events')).toEqual([tomorrow]);
      expect(await ids('webhook_delivery_attempts')).toEqual(['whatt_tomorrow']);
      expect(await partitions('webhook_deliveries')).not.toContain(`webhook_deliveries${todayName}`);
    } finally {
      await orm.close(true);
    }
  });

  it('keeps a day past the retention while one of its events waits for the relay, and drops it once published', async () => {
    const old = idAt('evt', NOW - 45 * DAY_MS);
    await pg.query(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES ($1, 'tenant_days', 'page.version.created', '{}', now())`, [old]);
    const orm = await openTestOrm(db.url);
    try {
      const roll = new RollHistoryDays(new SqlHistoryDays(orm), { retentionDays: 30, sessionRetentionDays: null }, new FixedClock(new Date(NOW + 31 * DAY_MS)));
      expect((await roll.execute()).kept).toEqual(['outbox_events_before']);
      expect(await ids('outbox_events')).toEqual([old]);
      await pg.query('DELETE FROM outbox_unpublished WHERE id = $1', [old]);
      expect((await roll.execute()).kept).toEqual([]);
      expect(await ids('outbox_events')).toEqual([]);
    } finally {
      await orm.close(true);
    }
  });

  it('claims a delivery in its own day only: the other days are not even planned', async () => {
    const [d0, d1, d2] = [0, 1, 2].map((n) => NOW + n * DAY_MS);
    await seedEvent(pg, 'd0', d0, 'pending');
    const eventId = await seedEvent(pg, 'd1', d1, 'pending');
    await seedEvent(pg, 'd2', d2, 'pending');
    const day = (ms: number) => `webhook_deliveries_p${new Date(dayStart(ms)).toISOString().slice(0, 10).replace(/-/g, '')}`;
    await pg.query('BEGIN');
    try {
      const now = new Date();
      const { rows } = await pg.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${CLAIM_ATTEMPTS_SQL}`, [['whdlv_d1'], [1], [now], [new Date(now.getTime() + 30_000)], [eventId]]);
      const plan = rows.map((r) => r['QUERY PLAN'] as string);
      const scanOf = (table: string) => plan.find((line) => line.includes('Scan') && line.includes(` on ${table} `)) ?? '';
      expect(scanOf(day(d1))).toMatch(/actual rows=1 loops=1/);
      // Planned with its values, as the worker plans (PlanKeeping): the event ids rule the other days out before any is opened or locked.
      for (const other of [day(d0), day(d2), 'webhook_deliveries_before']) expect(plan.join('\n')).not.toContain(` ${other} `);
      const eventDays = new Set(plan.join('\n').match(/outbox_events_(p\d{8}|before|beyond)\b/g));
      expect([...eventDays]).toEqual([day(d1).replace('webhook_deliveries', 'outbox_events')]);
    } finally {
      await pg.query('ROLLBACK');
    }
  });

  // Days the migration made ahead of today, so that a test can stand "now" two days on and still
  // have days after it: noon of today, tomorrow and the day after, and that day's 13:00 as now.
  const noon = (n: number) => TODAY + n * DAY_MS + 12 * 3_600_000;
  const LATER_NOW = new Date(noon(2) + 3_600_000);
  const dayName = (table: string, ms: number) => `${table}_p${new Date(dayStart(ms)).toISOString().slice(0, 10).replace(/-/g, '')}`;
  /** The day partitions of `table` a plan names, as times; `_before` as -Infinity, `_beyond` as Infinity. */
  const daysIn = (table: string, plan: string) =>
    [...new Set(plan.match(new RegExp(`\\b${table}_(p\\d{8}|before|beyond)\\b`, 'g')))].map((name) => {
      const tail = name.slice(table.length + 1);
      if (tail === 'before') return -Infinity;
      if (tail === 'beyond') return Infinity;
      return Date.UTC(Number(tail.slice(1, 5)), Number(tail.slice(5, 7)) - 1, Number(tail.slice(7, 9)));
    });

  it("reads a page of the delivery log from the days up to its cursor's, as the API plans it: the days after are not opened", async () => {
    // An attempt a minute after each event, for events at noon of three days.
    const attempts = [0, 1, 2].map((n) => ({ id: idAt('whatt', noon(n) + 60_000), eventId: idAt('evt', noon(n)) }));
    for (const [n, a] of attempts.entries()) {
      await pg.query(
        `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
         VALUES ($1, 'tenant_days', $2, 'whsub_days', $3, 'page.version.created', 1, 204, 3, now())`,
        [a.id, `whdlv_log${n}`, a.eventId],
      );
    }
    // The API keeps one plan per statement (PlanKeeping 'kept'): the days are ruled out as it starts.
    await pg.query(`SET plan_cache_mode = force_generic_plan`);
    const page = async (after: string | undefined, name: string) => {
      const statement = deliveryLogStatement('tenant_days', 'whsub_days', { limit: 20, after }, LATER_NOW);
      await pg.query(`PREPARE ${name} AS ${statement.text}`);
      const literals = statement.values.map((v) => pg.escapeLiteral(String(v))).join(', ');
      const plan = (await pg.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE ${name}(${literals})`)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      const ids = (await pg.query(`EXECUTE ${name}(${literals})`)).rows.map((r) => r.id);
      return { plan, ids };
    };
    try {
      const first = await page(undefined, 'log_first');
      expect(first.ids).toEqual(attempts.map((a) => a.id).reverse());
      // Every day made after "now" and the `_beyond` are removed as it starts; today and the two after it are read.
      const after = daysIn('webhook_delivery_attempts', (await partitions('webhook_delivery_attempts')).join(' ')).filter((day) => day > dayStart(LATER_NOW.getTime()));
      expect(after.length).toBeGreaterThan(1);
      expect(first.plan).toContain(`Subplans Removed: ${after.length}`);
      const firstDays = daysIn('webhook_delivery_attempts', first.plan);
      expect(firstDays.filter((day) => day > dayStart(LATER_NOW.getTime()))).toEqual([]);
      expect(firstDays).toEqual(expect.arrayContaining([TODAY, TODAY + DAY_MS, TODAY + 2 * DAY_MS]));

      // After the middle attempt: the day after it is not read either.
      const second = await page(attempts[1].id, 'log_second');
      expect(second.ids).toEqual([attempts[0].id]);
      const secondDays = daysIn('webhook_delivery_attempts', second.plan);
      expect(secondDays.filter((day) => day > TODAY + DAY_MS)).toEqual([]);
      expect(secondDays).toEqual(expect.arrayContaining([TODAY, TODAY + DAY_MS]));
    } finally {
      await pg.query('DEALLOCATE ALL');
      await pg.query(`RESET plan_cache_mode`);
    }
  });

  it('sweeps only the days of events made by now, as the worker plans it: the days after are not planned', async () => {
    // A delivery due and never taken by a job, of an event of tomorrow's noon; and a turn nobody holds.
    await seedEvent(pg, 'due', noon(1), 'pending');
    await pg.query(`UPDATE webhook_deliveries SET order_key = 'page_1', order_seq = 2, status = 'waiting' WHERE id = 'whdlv_due'`);
    await seedEvent(pg, 'stranded', noon(1), 'pending');
    await pg.query('BEGIN');
    try {
      // The worker plans each call (PlanKeeping 'per-call'): an unnamed statement is planned with its values.
      const explain = async (sql: string, values: unknown[]) =>
        (await pg.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`, values)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      const ceiling = eventIdCeiling(LATER_NOW.getTime());
      const stranded = await explain(STRANDED_SQL, [LATER_NOW, LATER_NOW, 100, LATER_NOW, ceiling, LATER_NOW]);
      await pg.query(PRICE_OUT_SORTS_SQL);
      const stalled = await explain(STALLED_TURNS_SQL, ['', '', 100, ceiling]);
      for (const plan of [stranded, stalled]) {
        const days = daysIn('webhook_deliveries', plan);
        expect(days.filter((day) => day > dayStart(LATER_NOW.getTime()))).toEqual([]);
        expect(days).toEqual(expect.arrayContaining([TODAY, TODAY + DAY_MS]));
      }
      // Each found its delivery: the stranded one updated, the stalled turn's page listed.
      const tomorrow = dayName('webhook_deliveries', noon(1));
      expect(stranded).toMatch(new RegExp(`Index Scan using ${tomorrow}_\\w+ on ${tomorrow} \\w+ \\(actual rows=1 loops=1\\)`));
      expect(stranded).toMatch(/^Update on webhook_deliveries d \(actual rows=1 loops=1\)/);
      expect(stalled).toMatch(/^Subquery Scan on q \(actual rows=1 loops=1\)/);
    } finally {
      await pg.query('ROLLBACK');
    }
  });

  it('drops a day holding a million aged attempts as one partition, with no DELETE', async () => {
    // A million attempts of deliveries of events 45 days old: all in the `_before` day.
    const eventAt = NOW - 45 * DAY_MS;
    await pg.query(`SET synchronous_commit = off`);
    await pg.query(
      `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
       SELECT 'whatt_' || lpad(n::text, 26, '0'), 'tenant_days', 'whdlv_' || lpad((n / 10)::text, 26, '0'), 'whsub_days', $1, 'page.version.created', n % 10 + 1, 500, 3, now()
       FROM generate_series(1, 1000000) n`,
      [typeIdLowerBound('evt', eventAt)],
    );
    expect((await pg.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts`)).rows[0].n).toBe(1_000_000);
    const orm = await openTestOrm(db.url);
    try {
      const days = new SqlHistoryDays(orm);
      const started = performance.now();
      const dropped = await days.dropWebhookDaysBefore(new Date(TODAY));
      const elapsedMs = performance.now() - started;
      console.log(`dropped a day of 1,000,000 attempts in ${elapsedMs.toFixed(0)} ms:\n${dropped.statements.join(';\n')};`);
      expect(dropped.statements).toContain('DROP TABLE IF EXISTS webhook_delivery_attempts_before');
      expect(dropped.statements.join('\n')).not.toMatch(/DELETE/);
      expect((await pg.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts`)).rows[0].n).toBe(0);
      expect(await partitions('webhook_delivery_attempts')).not.toContain('webhook_delivery_attempts_before');
    } finally {
      await orm.close(true);
    }
  }, 120_000);
});
