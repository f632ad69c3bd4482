import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { PUBLISH_EVENTS_SQL, publishParameters } from '../../src/infrastructure/persistence/outbox/event-feed.sql';
import { isolatedDatabase } from '../support/isolated-database';

// The worker's sessions price an index read for data in memory (random_page_cost 1.1,
// decisions.md 155). The relay's queue fills and drains faster than any ANALYZE: here its
// statistics say it is empty while 20,000 events wait. The publish deletes the 200 it relayed;
// priced for a spinning disk (PostgreSQL's default), that delete read the whole queue.
describe("the worker's sessions with a queue the statistics do not know of", () => {
  let db: { url: string; drop: () => Promise<void> };
  let pg: Client;
  let worker: MikroORM;
  const queued = Array.from({ length: 20_000 }, (_, i) => `evt_${String(i).padStart(26, '0')}`);
  beforeAll(async () => {
    db = await isolatedDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    await pg.query('ANALYZE outbox_unpublished');
    await pg.query('INSERT INTO outbox_unpublished (id) SELECT unnest($1::text[])', [queued]);
    worker = await MikroORM.init(createOrmConfig(db.url, 1, undefined, 'per-call'));
  }, 60_000);
  afterAll(async () => {
    await worker.close(true);
    await pg.end();
    await db.drop();
  });

  const publishPlan = async (explain: (text: string, values: unknown[]) => Promise<{ 'QUERY PLAN': string }[]>) => {
    const relayed = queued.filter((_, i) => i % 100 === 0).map((id) => ({ id, tenant_id: 'tenant_q', type: 'page.version.created', created_at: new Date() }));
    const rows = await explain(`EXPLAIN ${PUBLISH_EVENTS_SQL}`, publishParameters(new Date(), relayed));
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it("delete the relay's published queue rows by their key", async () => {
    const plan = await publishPlan((text, values) => sqlRows(worker.em, text, values));
    expect(plan).toMatch(/Delete on outbox_unpublished[\s\S]*Index Scan on outbox_unpublished_pkey|Delete on outbox_unpublished[\s\S]*Index Scan using outbox_unpublished_pkey/);
    expect(plan).not.toMatch(/Seq Scan on outbox_unpublished/);
  });

  it('where a session priced for a spinning disk reads the whole queue', async () => {
    // The same statement, planned per call as the worker plans it, at PostgreSQL's default price.
    await pg.query('SET plan_cache_mode = force_custom_plan');
    const plan = await publishPlan(async (text, values) => (await pg.query(text, values)).rows);
    expect(plan).toMatch(/Seq Scan on outbox_unpublished/);
  });
});
