import { Client } from 'pg';
import { isolatedDatabase } from '../support/isolated-database';

// Every query that reads the delivery history goes through an index, checked on a million rows
// (in one day: the partitions' indexes are the partitioned table's, made per day).
describe('webhook history query plans on a million deliveries', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pg: Client;
  beforeAll(async () => {
    db = await isolatedDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    // Seeding only: foreign keys are not checked row by row (the rows are consistent by
    // construction), which makes the million rows several times faster to write.
    await pg.query(`SET session_replication_role = replica`);
    await pg.query(`SET synchronous_commit = off`);
    await pg.query(`INSERT INTO tenants (id, name, created_at) VALUES ('tenant_plan', 'plans', now())`);
    await pg.query(
      `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
       SELECT 'whsub_' || lpad(s::text, 26, '0'), 'tenant_plan', 'https://hooks.example.com/' || s, '{page.version.created}', true, 'x', now(), now()
       FROM generate_series(1, 1000) s`,
    );
    await pg.query(
      `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
       SELECT 'evt_' || lpad(e::text, 26, '0'), 'tenant_plan', 'page.version.created', '{}', now(), now() - (e % 60) * interval '1 day'
       FROM generate_series(1, 1000) e`,
    );
    // 1,000,000 deliveries over 60 days: 1 % still pending, the rest delivered or failed.
    await pg.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, finished_at)
       SELECT 'whdlv_' || lpad((e * 1000 + s)::text, 26, '0'), 'tenant_plan', 'whsub_' || lpad(s::text, 26, '0'), 'evt_' || lpad(e::text, 26, '0'), 'page.version.created',
              CASE WHEN (e + s) % 100 = 0 THEN 'pending' WHEN (e + s) % 7 = 0 THEN 'failed' ELSE 'delivered' END, 1,
              now() - ((e * 1000 + s) % 86400) * interval '1 minute', now(), now(),
              CASE WHEN (e + s) % 100 = 0 THEN NULL ELSE now() - ((e * 1000 + s) % 86400) * interval '1 minute' END
       FROM generate_series(1, 1000) e, generate_series(1, 1000) s`,
    );
    await pg.query(
      `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
       SELECT 'whatt_' || substr(id, 7), tenant_id, id, subscription_id, event_id, event_type, 1, 204, 3, created_at FROM webhook_deliveries`,
    );
    await pg.query(`SET session_replication_role = DEFAULT`);
    await pg.query('ANALYZE');
  }, 180_000);
  afterAll(async () => {
    await pg.end();
    await db.drop();
  });

  const plan = async (sql: string) => (await pg.query(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const sub = `'whsub_${'500'.padStart(26, '0')}'`;

  it.each([
    [
      'the sweeper: due deliveries without a live job',
      `SELECT id FROM webhook_deliveries WHERE status IN ('pending', 'sending') AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
       AND (enqueued_at IS NULL OR enqueued_at <= now()) ORDER BY next_attempt_at LIMIT 1000`,
      'webhook_deliveries_unfinished_idx',
    ],
    ['the deliveries log of a subscription', `SELECT id FROM webhook_delivery_attempts WHERE subscription_id = ${sub} AND tenant_id = 'tenant_plan' ORDER BY id DESC LIMIT 21`, 'webhook_delivery_attempts_subscription_idx'],
    [
      'recovery: failed or retried deliveries of a subscription since a time',
      `SELECT d.id FROM webhook_deliveries d WHERE d.subscription_id = ${sub} AND d.created_at >= now() - interval '1 day'
         AND d.manual_id IS NULL AND (d.status = 'failed' OR (d.status IN ('pending', 'sending') AND d.attempt_count > 0))
       ORDER BY d.created_at, d.id LIMIT 10001`,
      'webhook_deliveries_recoverable_idx',
    ],
    [
      'the relay: manual deliveries not handed to the queue yet',
      `SELECT id FROM webhook_deliveries WHERE manual_id IS NOT NULL AND enqueued_at IS NULL AND status = 'pending' ORDER BY id LIMIT 500`,
      'webhook_deliveries_requested_idx',
    ],
    [
      'redelivery: a waiting redelivery of a delivery',
      `SELECT 1 FROM webhook_deliveries m WHERE m.redelivery_of = 'whdlv_${'7'.padStart(26, '0')}' AND m.status IN ('pending', 'sending')`,
      'webhook_deliveries_redelivery_idx',
    ],
  ])('%s: through its index', async (_name, sql, index) => {
    const text = await plan(sql);
    // The rows are in the `_before` day (their ids are older than any day made): its copy of the index.
    const [{ relname }] = (
      await pg.query(
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_index x ON x.indexrelid = c.oid
         WHERE i.inhparent = $1::regclass AND x.indrelid::regclass::text LIKE '%_before'`,
        [index],
      )
    ).rows;
    expect(text).toContain(relname);
    expect(text).not.toMatch(/Seq Scan on webhook_deliveries_before|Seq Scan on webhook_delivery_attempts_before/);
  });
});
