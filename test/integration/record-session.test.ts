import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { RecordSession } from '../../src/infrastructure/persistence/connection/record-session';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { DAY_MS, dayStart } from '../../src/infrastructure/persistence/history/history-tables';
import { DayRecords } from '../../src/infrastructure/persistence/webhooks/day-records';
import { AttemptRecord, recordDaySql, recordRows } from '../../src/infrastructure/persistence/webhooks/delivery-attempts.sql';
import { isolatedDatabase } from '../support/isolated-database';

// The worker records attempts on a session that keeps its plans (RecordSession, decisions.md 157),
// aimed at each event's day's own tables. A plan kept from when today's day was empty must still
// look each delivery up by its key once the day is full: here the statistics say the day is empty
// while 5,000 deliveries are in it (a drain fills a day faster than autovacuum analyses it).
describe("the worker's record session", () => {
  let db: { url: string; drop: () => Promise<void> };
  let pg: Client;
  let pool: MikroORM;
  let session: RecordSession;
  const now = Date.now();
  // Today's deliveries, and two of an event made before the history's first day (in `_before`, no day table of its own).
  const today = Array.from({ length: 5_000 }, () => ({ id: newTypeId('whdlv', now), eventId: newTypeId('evt', now) }));
  const older = Array.from({ length: 2 }, () => ({ id: newTypeId('whdlv', now - 3 * DAY_MS), eventId: newTypeId('evt', now - 3 * DAY_MS) }));

  beforeAll(async () => {
    db = await isolatedDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    await pg.query('ANALYZE webhook_deliveries');
    await pg.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
       SELECT d.id, 'tenant_r', 'whsub_r', d.event_id, 'page.version.created', 'pending', 0, now(), now(), now() FROM unnest($1::text[], $2::text[]) AS d(id, event_id)`,
      [[...today, ...older].map((d) => d.id), [...today, ...older].map((d) => d.eventId)],
    );
    pool = await MikroORM.init(createOrmConfig(db.url, 2, undefined, 'per-call'));
    session = await RecordSession.open(db.url);
  }, 60_000);
  afterAll(async () => {
    await session.close();
    await pool.close(true);
    await pg.end();
    await db.drop();
  });

  const recordsOf = (deliveries: { id: string; eventId: string }[]): AttemptRecord[] =>
    deliveries.map((d) => ({
      id: newTypeId('whatt'), tenantId: 'tenant_r', deliveryId: d.id, subscriptionId: 'whsub_r', eventId: d.eventId, eventType: 'page.version.created',
      attempt: 1, statusCode: 204, durationMs: 3, error: null, nextAttemptAt: null, at: new Date(), status: 'delivered', finishedAt: new Date(), trigger: 'scheduled', redeliveryOf: null, sentAt: null, responseExcerpt: null,
    }));
  const states = async (deliveries: { id: string }[]) =>
    (
      await pg.query<{ delivered: number; logged: number }>(
        `SELECT count(*) FILTER (WHERE status = 'delivered' AND attempt_count = 1)::int AS delivered,
                (SELECT count(*)::int FROM webhook_delivery_attempts WHERE delivery_id = ANY($1)) AS logged
         FROM webhook_deliveries WHERE id = ANY($1)`,
        [deliveries.map((d) => d.id)],
      )
    ).rows[0];

  it("keeps a plan made from the empty day's statistics that looks each delivery up by a key", async () => {
    const text = recordDaySql(dayStart(now));
    await sqlRows(session.orm.em, `PREPARE record_day (webhook_attempt_record[]) AS ${text}`);
    const lines = await sqlRows<{ 'QUERY PLAN': string }>(session.orm.em, `EXPLAIN EXECUTE record_day (${pg.escapeLiteral(recordRows(recordsOf(today.slice(0, 20))))})`);
    const plan = lines.map((r) => r['QUERY PLAN']).join('\n');
    // The day's own tables only, each delivery by its primary key or its other unique key, with both key columns given.
    expect(plan).toMatch(/Update on webhook_deliveries_p\d{8} d/);
    expect(plan).toMatch(/Index Scan using webhook_deliveries_p\d{8}_(pkey|subscription_id_event_id_manua\w*) on webhook_deliveries_p\d{8} d/);
    expect(plan).toMatch(/Index Cond: \(\(id = \(?r\.delivery_id\)?(::text)?\) AND \(event_id = \(?r\.event_id\)?(::text)?\)\)/);
    expect(plan).not.toMatch(/Seq Scan|Hash|Merge|Materialize|webhook_deliveries_before/);
  });

  it("writes a group's records in their day's tables, and those of an event with no day table through the partitioned ones", async () => {
    const days = new DayRecords(session, pool);
    const group = [...today.slice(100, 140), ...older];
    await days.write(recordsOf(group));
    expect(await states(today.slice(100, 140))).toEqual({ delivered: 40, logged: 40 });
    expect(await states(older)).toEqual({ delivered: 2, logged: 2 });
    // The same records again (a job run twice): nothing more is written.
    await days.write(recordsOf(group));
    expect(await states(group)).toEqual({ delivered: 42, logged: 42 });
  });
});
