import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { publishParameters } from '../../src/infrastructure/persistence/outbox/event-feed.sql';
import { INSERT_AND_PUBLISH_SQL } from '../../src/infrastructure/persistence/webhooks/relay-new-deliveries.sql';
import { RECORD_ATTEMPTS_SQL, recordParameters } from '../../src/infrastructure/persistence/webhooks/delivery-attempts.sql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { isolatedDatabase } from '../support/isolated-database';

// The worker's sessions price an index read for data in memory (random_page_cost 1.1,
// decisions.md 155). The relay's queue and today's day of deliveries fill faster than any ANALYZE:
// here the statistics say both are empty while 20,000 events wait and 5,000 deliveries are made.
// The publish deletes the 200 events it relayed, the record writes 20 attempts; priced for a
// spinning disk (PostgreSQL's default), each read the whole table to find its rows.
/** Runs an EXPLAIN on one session or the other. */
type Explain = (text: string, values: unknown[]) => Promise<{ 'QUERY PLAN': string }[]>;

describe("the worker's sessions, with statistics that know nothing of the queue or of today's deliveries", () => {
  let db: { url: string; drop: () => Promise<void> };
  let pg: Client;
  let worker: MikroORM;
  const queued = Array.from({ length: 20_000 }, (_, i) => `evt_${String(i).padStart(26, '0')}`);
  const today = Array.from({ length: 5_000 }, () => ({ id: newTypeId('whdlv'), eventId: newTypeId('evt') }));
  beforeAll(async () => {
    db = await isolatedDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    // `pg` plans per call as the worker does, at PostgreSQL's default price: what the worker's sessions are compared with.
    await pg.query('SET plan_cache_mode = force_custom_plan');
    await pg.query('ANALYZE outbox_unpublished');
    await pg.query('INSERT INTO outbox_unpublished (id) SELECT unnest($1::text[])', [queued]);
    // Today's day of deliveries, analysed while empty, then filled with a few thousand as a drain fills it.
    await pg.query('ANALYZE webhook_deliveries');
    await pg.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
       SELECT d.id, 'tenant_q', 'whsub_q', d.event_id, 'page.version.created', 'pending', 0, now(), now(), now() FROM unnest($1::text[], $2::text[]) AS d(id, event_id)`,
      [today.map((d) => d.id), today.map((d) => d.eventId)],
    );
    worker = await MikroORM.init(createOrmConfig(db.url, 1, undefined, 'per-call'));
  }, 60_000);
  afterAll(async () => {
    await worker.close(true);
    await pg.end();
    await db.drop();
  });

  const publishPlan = async (explain: Explain) => {
    const relayed = queued.filter((_, i) => i % 100 === 0).map((id) => ({ id, tenant_id: 'tenant_q', type: 'page.version.created', created_at: new Date() }));
    // The relay's last statement of a round, here with no deliveries to insert beside the publish.
    const rows = await explain(`EXPLAIN ${INSERT_AND_PUBLISH_SQL}`, [...publishParameters(new Date(), relayed), '[]']);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it("delete the relay's published queue rows by their key", async () => {
    const plan = await publishPlan((text, values) => sqlRows(worker.em, text, values));
    expect(plan).toMatch(/Delete on outbox_unpublished[\s\S]*Index Scan on outbox_unpublished_pkey|Delete on outbox_unpublished[\s\S]*Index Scan using outbox_unpublished_pkey/);
    expect(plan).not.toMatch(/Seq Scan on outbox_unpublished/);
  });

  const recordPlan = async (explain: Explain, attempts: number) => {
    const now = new Date();
    const records = today.slice(0, attempts).map((d) => ({
      id: newTypeId('whatt'), tenantId: 'tenant_q', deliveryId: d.id, subscriptionId: 'whsub_q', eventId: d.eventId, eventType: 'page.version.created',
      attempt: 1, statusCode: 204, durationMs: 3, error: null, nextAttemptAt: null, at: now, status: 'delivered', finishedAt: now, trigger: 'scheduled' as const, redeliveryOf: null, sentAt: null, responseExcerpt: null,
    }));
    const rows = await explain(`EXPLAIN ${RECORD_ATTEMPTS_SQL}`, recordParameters(records));
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it.each([20, 200])("record %i attempts by their deliveries' keys in a day filling up", async (attempts) => {
    const plan = await recordPlan((text, values) => sqlRows(worker.em, text, values), attempts);
    expect(plan).toMatch(/Index Scan using webhook_deliveries_p\d{8}_pkey/);
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries|Hash Join/);
  });

  it('where a session priced for a spinning disk reads the whole queue', async () => {
    const plan = await publishPlan(async (text, values) => (await pg.query(text, values)).rows);
    expect(plan).toMatch(/Seq Scan on outbox_unpublished/);
  });

  // A record's rows are an array whose length the planner knows (decisions.md 158): at 20 it looks
  // them up even at a spinning disk's price, at a group's most (200) it reads the day whole.
  it('where a session priced for a spinning disk reads the whole day to record 200 attempts', async () => {
    const plan = await recordPlan(async (text, values) => (await pg.query(text, values)).rows, 200);
    expect(plan).toMatch(/Seq Scan on webhook_deliveries_p\d{8}/);
  });
});
