import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { eventListStatement } from '../../src/infrastructure/persistence/queries/sql-event.queries';
import { openTestOrm, sqlIn } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

// GET /v0/events?createdAfter=<a time in the future> on a tenant with 1,000,000 events: the
// statement's plan reads no row of the log (the time bound is the id index's own range, and it
// prunes the days before it), where a time filter alone walked the whole log looking for rows that
// are not there.
const EVENTS = 1_000_000;

/** The 48-bit millisecond time as a TypeID suffix's first ten Crockford base32 characters, in SQL. */
const TIME_CHARS = Array.from({ length: 10 }, (_, i) => `substr('0123456789abcdefghjkmnpqrstvwxyz', ((ms >> ${45 - 5 * i}) & 31)::int + 1, 1)`).join(' || ');

describe('the event log on 1,000,000 events', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let orm: MikroORM;
  let tenantId: string;
  let apiKey: string;
  const firstMs = Date.now() - 2 * 86_400_000;

  beforeAll(async () => {
    db = await isolatedDatabase();
    orm = await openTestOrm(db.url);
    t = await startTestApp({ orm });
    ({ tenantId, apiKey } = await createTenant(t));
    // One event a millisecond, ending two days ago minus 1,000 s; ids in the events' own time
    // (the rest of the suffix fixed: each millisecond has one event). Already relayed. Written
    // as a bulk load (this database is the test's own): the indexes are dropped first and built
    // again after, exactly as they were (10 s instead of 30 here), and the tenant's foreign key
    // is not checked row by row.
    const sql = (text: string, params: unknown[] = []) => sqlIn<Record<string, string>>(orm, text, params);
    const indexes = await sql(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'outbox_events'`);
    await sql('ALTER TABLE outbox_events DROP CONSTRAINT outbox_events_tenant_id_fkey');
    await sql(`ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_id_fkey`);
    await sql('ALTER TABLE outbox_events DROP CONSTRAINT outbox_events_pkey');
    for (const index of indexes.filter((i) => i.indexname !== 'outbox_events_pkey')) await sql(`DROP INDEX ${index.indexname}`);
    await sql(
      `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
       SELECT 'evt_' || ${TIME_CHARS} || '7000000000000000', ?, CASE WHEN ms % 3 = 0 THEN 'brand.created' ELSE 'page.version.created' END, '{}',
              to_timestamp(ms / 1000.0), to_timestamp(ms / 1000.0)
       FROM (SELECT ?::bigint + g AS ms FROM generate_series(0, ? - 1) g) s`,
      [tenantId, firstMs, EVENTS],
    );
    await sql('ALTER TABLE outbox_events ADD CONSTRAINT outbox_events_pkey PRIMARY KEY (id)');
    for (const index of indexes.filter((i) => i.indexname !== 'outbox_events_pkey')) await sql(index.indexdef);
    await sqlIn(orm, 'ANALYZE outbox_events');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await orm?.close(true);
    await db?.drop();
  });

  const plan = async (filter: { type?: 'brand.created'; createdAfter: Date }) => {
    const statement = eventListStatement(tenantId, filter, { limit: 20 });
    const [row] = await sqlIn<{ 'QUERY PLAN': unknown }>(orm, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text.replace(/\$\d+/g, '?')}`, statement.values);
    const root = (row['QUERY PLAN'] as { Plan: PlanNode; 'Execution Time': number }[])[0];
    return { nodes: flatten(root.Plan), ms: root['Execution Time'] };
  };

  it.each([[undefined], ['brand.created' as const]])('reads no row of the log for a createdAfter in the future (type %p)', async (type) => {
    const { nodes, ms } = await plan({ type, createdAfter: new Date(Date.now() + 3_600_000) });
    const scans = nodes.filter((n) => /Scan/.test(n['Node Type']));
    // The days before the bound are pruned: the one holding the million is not in the plan.
    expect(scans.map((n) => n['Relation Name'])).not.toContain('outbox_events_before');
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      expect(scan['Actual Rows']).toBe(0);
      expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
    }
    // A handful of pages (the empty days ahead), not the log's tens of thousands.
    const blocks = scans.reduce((sum, scan) => sum + scan['Shared Hit Blocks'] + (scan['Shared Read Blocks'] ?? 0), 0);
    expect(blocks).toBeLessThan(20);
    process.stdout.write(`events: createdAfter in the future, ${EVENTS.toLocaleString('en-US')} events${type ? `, type ${type}` : ''}: ${scans.length} empty days read, ${blocks} blocks, ${ms.toFixed(2)} ms in PostgreSQL\n`);
  });

  it('reads only the rows after the time for a createdAfter in the past', async () => {
    const after = new Date(firstMs + EVENTS - 101);
    const { nodes } = await plan({ createdAfter: after });
    const scan = nodes.find((n) => /Scan/.test(n['Node Type']) && n['Relation Name'] === 'outbox_events_before')!;
    // At most the 100 rows after the time (the day's scan may read them all to sort them across days), never more.
    expect(scan['Actual Rows']).toBeLessThanOrEqual(100);
    expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
    // And through the API: the 100 newest, walked newest first.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.http.get(`/v0/events?limit=100&createdAfter=${after.toISOString()}${cursor ? `&cursor=${cursor}` : ''}`).set('x-api-key', apiKey).expect(200);
      seen.push(...res.body.items.map((e: { id: string }) => e.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(100);
  });

  it('answers the API call with a createdAfter in the future at once (timed, printed)', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await t.http.get(`/v0/events?createdAfter=${future}`).set('x-api-key', apiKey);
      times.push(performance.now() - started);
      expect(res.body).toEqual({ items: [], hasMore: false });
    }
    times.sort((a, b) => a - b);
    process.stdout.write(`events: GET /v0/events?createdAfter=<future> on ${EVENTS.toLocaleString('en-US')} events, 20 calls: median ${times[10].toFixed(1)} ms, max ${times[19].toFixed(1)} ms\n`);
    // An event made now is still found by a createdAfter just before it.
    expect(newTypeId('evt') > eventListStatement(tenantId, { createdAfter: new Date(Date.now() - 1000) }, { limit: 1 }).values[1]!).toBe(true);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
