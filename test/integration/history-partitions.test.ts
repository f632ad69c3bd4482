import { Client } from 'pg';
import { RollHistoryDays } from '../../src/application/webhook/delivery/roll-history-days.use-case';
import { newTypeId, typeIdLowerBound } from '../../src/domain/shared/type-id';
import { SqlHistoryDays } from '../../src/infrastructure/persistence/history/sql-history-days';
import { DAY_MS, dayStart } from '../../src/infrastructure/persistence/history/history-tables';
import { CLAIM_ATTEMPTS_SQL } from '../../src/infrastructure/persistence/webhooks/delivery-attempts.sql';
import { openTestOrm } from '../support/database';
import { FixedClock } from '../support/fakes/fixed-clock';
import { isolatedDatabase } from '../support/isolated-database';

const NOW = Date.now();
const TODAY = dayStart(NOW);

/** One event with one delivery (in `status`) and its first attempt, the event made at `atMs`. */
async function seedEvent(pg: Client, key: string, atMs: number, status: string): Promise<string> {
  const eventId = newTypeId('evt', atMs);
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
        ['webhook_delivery_attempts', 'webhook_deliveries', 'outbox_events'].flatMap((t) => [`ALTER TABLE ${t} DETACH PARTITION ${t}_before CONCURRENTLY`, `DROP TABLE IF EXISTS ${t}_before`]),
      );
      expect(first.statements.join('\n')).not.toMatch(/DELETE/);
      // 45 days ahead of the real clock (31 + 14) now exist, for each of the four tables.
      expect(first.made).toHaveLength(4 * 31);
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
