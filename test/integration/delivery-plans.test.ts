import { Client } from 'pg';
import { CLAIM_ATTEMPTS_SQL, RECORD_ATTEMPTS_SQL, recordParameters } from '../../src/infrastructure/persistence/webhooks/delivery-attempts.sql';
import { PASS_TURNS_SQL, TURN_STATES_SQL } from '../../src/infrastructure/persistence/webhooks/delivery-turns.sql';
import { CLAIM_EVENTS_FROM_SQL, CLAIM_EVENTS_SQL } from '../../src/infrastructure/persistence/webhooks/outbox-relay.sql';
import { isolatedDatabase } from '../support/isolated-database';
import { DAY_MS, dayPartition, dayStart, EVENTS, eventIdCeiling } from '../../src/infrastructure/persistence/history/history-tables';

// The worker's claim and record are named statements, planned at every call with their values
// (PlanKeeping, mikro-orm.config.ts), from the statistics of the last ANALYZE. A backlog arrives
// faster than autovacuum analyses: the statistics still say that nothing is pending when 10,000
// deliveries are. The plans must then still go to each delivery by its primary key. (The claim
// written with `status IN ('pending', 'sending')` read every pending row through the
// unfinished-deliveries index instead: 2–5 ms a statement in the benchmark's drain.) The rows are
// in one day of the partitioned history (`_before`: their ids are older than the days made), and
// only that day is planned: the statements name their events' ids.
describe('the claim and record plans with a backlog the statistics do not know of', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pg: Client;
  const ids: string[] = [];
  beforeAll(async () => {
    db = await isolatedDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    await pg.query(`SET session_replication_role = replica`);
    await pg.query(`INSERT INTO tenants (id, name, created_at) VALUES ('tenant_plan', 'plans', now())`);
    await pg.query(
      `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
       VALUES ('whsub_plan', 'tenant_plan', 'http://127.0.0.1:9/hooks', '{page.version.created}', true, 'x', now(), now())`,
    );
    await pg.query(
      `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
       SELECT 'evt_' || lpad(e::text, 26, '0'), 'tenant_plan', 'page.version.created', '{}', now(), now() FROM generate_series(1, 20000) e`,
    );
    await pg.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, finished_at)
       SELECT 'whdlv_' || lpad(e::text, 26, '0'), 'tenant_plan', 'whsub_plan', 'evt_' || lpad(e::text, 26, '0'), 'page.version.created', 'delivered', 1, now(), now(), now(), now()
       FROM generate_series(1, 20000) e`,
    );
    await pg.query(`SET session_replication_role = DEFAULT`);
    // The statistics see 20,000 finished deliveries and none pending…
    await pg.query('ANALYZE webhook_deliveries');
    // …then a backlog of 10,000 arrives, unanalysed, and 2,000 ordered deliveries of 100 pages wait their turn.
    await pg.query(`UPDATE webhook_deliveries SET status = 'waiting', finished_at = NULL, next_attempt_at = NULL, order_key = 'pagevar_' || (substr(id, 7)::int % 100), order_seq = substr(id, 7)::int
                    WHERE id <= 'whdlv_' || lpad('2000', 26, '0')`);
    await pg.query(`UPDATE webhook_deliveries SET status = 'pending', attempt_count = 0, finished_at = NULL WHERE id > 'whdlv_' || lpad('10000', 26, '0')`);
    for (let e = 15_001; e <= 15_020; e++) ids.push(`whdlv_${String(e).padStart(26, '0')}`);
    // As the worker plans its statements: at every call, with its values (PlanKeeping).
    await pg.query(`SET plan_cache_mode = force_custom_plan`);
  }, 60_000);
  afterAll(async () => {
    await pg.end();
    await db.drop();
  });

  /** The names of a partitioned index's copies in the days (the plan names those). */
  const copies = async (index: string) =>
    (await pg.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, [index])).rows.map((r) => r.relname as string);
  const usesOneOf = (plan: string, names: string[]) => names.some((name) => plan.includes(`using ${name} on`) || plan.includes(`on ${name} `));

  const planOf = async (name: string, sql: string, types: string[], values: unknown[]) => {
    await pg.query(`PREPARE ${name} (${types.join(', ')}) AS ${sql}`);
    // EXPLAIN EXECUTE takes no bound parameters: the values go in as typed literals.
    const literal = (value: unknown): string => (value === null ? 'NULL' : value instanceof Date ? pg.escapeLiteral(value.toISOString()) : pg.escapeLiteral(String(value)));
    const args = values.map((value, i) => `ARRAY[${(value as unknown[]).map(literal).join(', ')}]::${types[i]}`).join(', ');
    const { rows } = await pg.query(`EXPLAIN EXECUTE ${name} (${args})`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it('claims through the primary key', async () => {
    const now = new Date();
    const plan = await planOf(
      'claim_plan',
      CLAIM_ATTEMPTS_SQL,
      ['text[]', 'int[]', 'timestamptz[]', 'timestamptz[]', 'text[]'],
      [ids, ids.map(() => 0), ids.map(() => now), ids.map(() => now), ids.map((id) => `evt_${id.slice(6)}`)],
    );
    // By (id, event_id) in each day, the day chosen per delivery as the statement runs.
    expect(plan).toMatch(/Index Cond: \(\(id = \(r\.id\)::text\) AND \(event_id = \(r\.event_id\)::text\)\)/);
    expect(usesOneOf(plan, await copies('webhook_deliveries_pkey'))).toBe(true);
    expect(usesOneOf(plan, await copies('webhook_deliveries_unfinished_idx'))).toBe(false);
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries_before/);
    // Planned for the deliveries' own day only (all in `_before` here): no other day is planned or locked.
    expect(plan).not.toMatch(/webhook_deliveries_p\d{8}|outbox_events_p\d{8}/);
  });

  it('records through the primary key', async () => {
    const now = new Date();
    const [rows, events] = recordParameters(
      ids.map((id) => ({
        id: `whatt_${id.slice(6)}`, tenantId: 'tenant_plan', deliveryId: id, subscriptionId: 'whsub_plan', eventId: `evt_${id.slice(6)}`, eventType: 'page.version.created',
        attempt: 1, statusCode: 204, durationMs: 3, error: null, nextAttemptAt: null, at: now, status: 'delivered', finishedAt: now, trigger: 'scheduled', redeliveryOf: null, sentAt: null, responseExcerpt: null,
      })),
    );
    await pg.query(`PREPARE record_plan (webhook_attempt_record[], text[]) AS ${RECORD_ATTEMPTS_SQL}`);
    // EXPLAIN EXECUTE takes no bound parameters: the values go in as typed literals.
    const { rows: lines } = await pg.query(`EXPLAIN EXECUTE record_plan (${pg.escapeLiteral(rows)}::webhook_attempt_record[], ARRAY[${events.map((e) => pg.escapeLiteral(e)).join(', ')}]::text[])`);
    const plan = lines.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Cond: \(\(id = \(?r\.delivery_id\)?(::text)?\) AND \(event_id = \(?r\.event_id\)?(::text)?\)\)/);
    expect(usesOneOf(plan, await copies('webhook_deliveries_pkey'))).toBe(true);
    expect(usesOneOf(plan, await copies('webhook_deliveries_unfinished_idx'))).toBe(false);
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries_before/);
    expect(plan).not.toMatch(/webhook_deliveries_p\d{8}/);
  });

  it("claims the relay's queued events and reads each by its key, never walking every event", async () => {
    // 200 of the 20,000 events wait in the relay's queue, which no ANALYZE has seen.
    await pg.query(`INSERT INTO outbox_unpublished (id) SELECT 'evt_' || lpad(e::text, 26, '0') FROM generate_series(19801, 20000) e`);
    await pg.query('ANALYZE outbox_events');
    await pg.query(`PREPARE relay_claim (int, text) AS ${CLAIM_EVENTS_SQL}`);
    await pg.query(`PREPARE relay_claim_from (int, text, text) AS ${CLAIM_EVENTS_FROM_SQL}`);
    const ceiling = pg.escapeLiteral(eventIdCeiling(Date.now()));
    for (const plan of [
      (await pg.query(`EXPLAIN EXECUTE relay_claim (200, ${ceiling})`)).rows.map((r) => r['QUERY PLAN']).join('\n'),
      (await pg.query(`EXPLAIN EXECUTE relay_claim_from (200, ${ceiling}, 'evt_${'0'.repeat(21)}19801')`)).rows.map((r) => r['QUERY PLAN']).join('\n'),
    ]) {
      // Each queued id looks its event up; the day holding the 20,000 (`_before`) by its key.
      expect(plan).toMatch(/Nested Loop/);
      expect(plan).toMatch(/Index Scan using outbox_events_before_pkey on outbox_events_before o_1[^\n]*\n\s+Index Cond: [^\n]*id = q\.id/);
      expect(plan).not.toMatch(/Merge Join|Hash Join|Seq Scan on outbox_events_before/);
      // The days made ahead hold no event yet, and are not planned.
      expect(plan).not.toContain(dayPartition(EVENTS, dayStart(Date.now()) + 2 * DAY_MS));
      // The tenants' live subscriptions, read in the same statement, by their index.
      expect(plan).toMatch(/Index Scan using webhook_subscriptions_live_idx on webhook_subscriptions[^\n]*\n\s+Index Cond: \(tenant_id = ANY/);
    }
  });

  it('passes turns and reads their states page by page, never the whole index of ordered deliveries', async () => {
    const pages = ['pagevar_1', 'pagevar_2', 'pagevar_3'];
    const args = `ARRAY['whsub_plan', 'whsub_plan', 'whsub_plan']::text[], ARRAY[${pages.map((p) => `'${p}'`).join(', ')}]::text[]`;
    await pg.query(`PREPARE pass_plan (text[], text[], timestamptz) AS ${PASS_TURNS_SQL}`);
    await pg.query(`PREPARE states_plan (text[], text[]) AS ${TURN_STATES_SQL}`);
    for (const plan of [
      (await pg.query(`EXPLAIN EXECUTE pass_plan (${args}, now())`)).rows.map((r) => r['QUERY PLAN']).join('\n'),
      (await pg.query(`EXPLAIN EXECUTE states_plan (${args})`)).rows.map((r) => r['QUERY PLAN']).join('\n'),
    ]) {
      expect(usesOneOf(plan, await copies('webhook_deliveries_turns_idx'))).toBe(true);
      expect(usesOneOf(plan, await copies('webhook_deliveries_unfinished_idx'))).toBe(false);
      expect(plan).toMatch(/Index Cond: \(\(subscription_id = p\.s\) AND \(order_key = p\.k\)\)/);
      expect(plan).not.toMatch(/Index Cond: \(order_key IS NOT NULL\)/);
      expect(plan).not.toMatch(/Seq Scan on webhook_deliveries_before/);
    }
  });
});
