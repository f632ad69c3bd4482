import { Client } from 'pg';
import { PurgeOldDeliveries } from '../../src/application/webhook/delivery/purge-old-deliveries.use-case';
import { SqlRetentionStore } from '../../src/infrastructure/persistence/webhooks/sql-retention.store';
import { openTestOrm } from '../support/database';
import { FixedClock } from '../support/fakes/fixed-clock';
import { isolatedDatabase } from '../support/isolated-database';

/** A tenant, a subscription, and `count` events with one delivery each, as SQL makes them fast. */
async function seed(pg: Client, rows: { key: string; publishedDaysAgo: number | null; status: string; finishedDaysAgo: number | null }[]) {
  await pg.query(`INSERT INTO tenants (id, name, created_at) VALUES ('tenant_ret', 'retention', now()) ON CONFLICT DO NOTHING`);
  await pg.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     VALUES ('whsub_ret', 'tenant_ret', 'https://hooks.example.com/r', '{page.version.created}', true, 'x', now(), now()) ON CONFLICT DO NOTHING`,
  );
  for (const row of rows) {
    await pg.query(
      `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
       VALUES ($1, 'tenant_ret', 'page.version.created', '{}', now(), CASE WHEN $2::int IS NULL THEN NULL ELSE now() - $2::int * interval '1 day' END)`,
      [`evt_${row.key}`, row.publishedDaysAgo],
    );
    if (row.status === 'none') continue;
    await pg.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, finished_at)
       VALUES ($1, 'tenant_ret', 'whsub_ret', $2, 'page.version.created', $3, 1, now(), now(), now(), CASE WHEN $4::int IS NULL THEN NULL ELSE now() - $4::int * interval '1 day' END)`,
      [`whdlv_${row.key}`, `evt_${row.key}`, row.status, row.finishedDaysAgo],
    );
    await pg.query(
      `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
       VALUES ($1, 'tenant_ret', $2, 'whsub_ret', $3, 'page.version.created', 1, 204, 3, now())`,
      [`whatt_${row.key}`, `whdlv_${row.key}`, `evt_${row.key}`],
    );
  }
}

describe('webhook history retention', () => {
  it('deletes finished deliveries, their attempts and unreferenced relayed events past the retention, in batches, and nothing else', async () => {
    const db = await isolatedDatabase();
    const orm = await openTestOrm(db.url);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      await seed(pg, [
        ...['a', 'b', 'c', 'd', 'e'].map((key) => ({ key: `old_${key}`, publishedDaysAgo: 45, status: 'delivered', finishedDaysAgo: 40 })),
        { key: 'old_failed', publishedDaysAgo: 45, status: 'failed', finishedDaysAgo: 35 },
        { key: 'recent', publishedDaysAgo: 5, status: 'delivered', finishedDaysAgo: 5 },
        { key: 'old_but_pending', publishedDaysAgo: 45, status: 'pending', finishedDaysAgo: null },
        { key: 'old_no_delivery', publishedDaysAgo: 45, status: 'none', finishedDaysAgo: null },
        { key: 'unpublished', publishedDaysAgo: null, status: 'none', finishedDaysAgo: null },
      ]);
      const purge = new PurgeOldDeliveries(new SqlRetentionStore(orm), { retentionDays: 30 }, new FixedClock(new Date()));
      expect(await purge.execute({ batch: 2, maxBatches: 100 })).toEqual({ deliveries: 6, events: 7 });
      const left = async (table: string) => (await pg.query(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
      expect(await left('webhook_deliveries')).toEqual(['whdlv_old_but_pending', 'whdlv_recent']);
      expect(await left('webhook_delivery_attempts')).toEqual(['whatt_old_but_pending', 'whatt_recent']);
      expect(await left('outbox_events')).toEqual(['evt_old_but_pending', 'evt_recent', 'evt_unpublished']);
      expect(await purge.execute({ batch: 2, maxBatches: 100 })).toEqual({ deliveries: 0, events: 0 });
    } finally {
      await pg.end();
      await orm.close(true);
      await db.drop();
    }
  });
});

// Every query that reads the delivery history goes through an index, checked on a million rows.
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
    ['retention: deliveries finished before the cut-off', `SELECT id FROM webhook_deliveries WHERE finished_at < now() - interval '30 days' ORDER BY finished_at LIMIT 1000`, 'webhook_deliveries_finished_idx'],
    [
      'retention: relayed events no delivery refers to',
      `SELECT o.id FROM outbox_events o WHERE o.published_at < now() - interval '30 days'
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.id) ORDER BY o.published_at LIMIT 1000`,
      'webhook_deliveries_event_subscription_manual_key',
    ],
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
    expect(text).toContain(index);
    expect(text).not.toMatch(/Seq Scan on webhook_deliveries|Seq Scan on webhook_delivery_attempts/);
  });
});
