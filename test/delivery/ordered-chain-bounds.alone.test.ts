import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { LOCK_TURNS_SQL, PASS_TURNS_SQL, STALLED_TURNS_SQL, TURN_STATES_SQL } from '../../src/infrastructure/persistence/webhooks/delivery-turns.sql';
import { PRICE_OUT_SORTS_SQL } from '../../src/infrastructure/persistence/connection/index-walk';
import { eventIdCeiling } from '../../src/infrastructure/persistence/history/history-tables';
import { subscriptionBody } from '../support/builders/subscriptions';
import { platform, rows } from '../support/platform';
import { createTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookScenario } from '../support/webhook-scenario';
import { startTestWorker } from '../support/webhook-worker';

// Issue 70: one tenant's ordered chain costs every other tenant nothing. Tenant A's page has
// 20,000 deliveries waiting behind a turn its failing receiver holds, and A keeps making versions
// of it (each relay round reads that page's turn). Tenant B's deliveries arrive within a second
// of their 201 and B's long poll of the event feed answers each event. The turn reads' plans touch
// one index entry per day whatever the chain's length. Alone (scripts/test.sh): it measures time.
const CHAIN = 20_000;

/** The largest row count any node of a plan produced (EXPLAIN ANALYZE), and the plan. */
async function widestNode(pg: Client, sql: string, values: unknown[]): Promise<{ rows: number; plan: string }> {
  const plan = (await pg.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`, values)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
  const counts = [...plan.matchAll(/actual rows=(\d+)/g)].map((m) => Number(m[1]));
  const removed = [...plan.matchAll(/Rows Removed by Filter: (\d+)/g)].map((m) => Number(m[1]));
  return { rows: Math.max(...counts, ...removed), plan };
}

describe('an ordered chain of 20,000 behind a failing receiver', () => {
  it("keeps another tenant's deliveries within a second and its event feed answering; the turn reads stay one entry per day", async () => {
    const s = await webhookScenario();
    const healthy = new WebhookReceiver();
    await healthy.start();
    const worker = await startTestWorker(s.db.url, { env: { WEBHOOK_RETRY_SCHEDULE: Array(50).fill('1s').join(','), WEBHOOK_ATTEMPT_LOCK_MS: '30000' } });
    const pg = new Client({ connectionString: s.db.url });
    await pg.connect();
    let making = true;
    let versionsOfA: Promise<number> = Promise.resolve(0);
    try {
      s.receiver.fallback = 500;
      await s.t.http.patch(`/v0/webhook_subscriptions/${s.subscription.id}`).set('x-api-key', s.tenant.apiKey).send({ ordering: 'page' }).expect(200);
      const page = (await s.t.http.post(`/v0/page_groups/${s.group.pageGroupId}/pages`).set('x-api-key', s.tenant.apiKey).expect(201)).body.pageId as string;
      await s.receiver.waitUntil(() => s.receiver.received.length >= 1);

      // The chain: 20,000 versions of the page, as the relay makes them behind a held turn.
      const events = Array.from({ length: CHAIN }, () => newTypeId('evt'));
      const deliveries = events.map(() => newTypeId('whdlv'));
      await pg.query('SET session_replication_role = replica');
      await pg.query(
        `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
         SELECT e, $2, 'page.version.created', json_build_object('id', e, 'type', 'page.version.created', 'createdAt', now(), 'tenantId', $2::text,
                'data', json_build_object('pageId', $3::text, 'version', 1000 + n))::text, now(), now()
         FROM unnest($1::text[]) WITH ORDINALITY AS x(e, n)`,
        [events, s.tenant.tenantId, page],
      );
      await pg.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, created_at, updated_at, order_key, order_seq)
         SELECT d, $3, $4, e, 'page.version.created', 'waiting', 0, now(), now(), $5, 1000 + n
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(d, e, n)`,
        [deliveries, events, s.tenant.tenantId, s.subscription.id, page],
      );
      await pg.query('SET session_replication_role = DEFAULT');
      const waiting = await rows<{ n: number }>(s.t, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'waiting'`, [s.subscription.id]);
      expect(waiting[0].n).toBe(CHAIN);

      // A keeps making versions of the page: every relay round that takes one reads its turn.
      versionsOfA = (async () => {
        let made = 0;
        while (making) {
          await s.t.http.post(`/v0/page_groups/${s.group.pageGroupId}/pages/${page}/versions`).set('x-api-key', s.tenant.apiKey).send({}).expect(201);
          made += 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return made;
      })();

      const b = await createTenant(s.t, 'B');
      await s.t.http.post('/v0/webhook_subscriptions').set('x-api-key', b.apiKey).send(subscriptionBody(healthy.url)).expect(201);
      const groupOfB = await platform(s.t).group(b.tenantId);
      const start = await s.t.http.get('/v0/events?order=asc').set('x-api-key', b.apiKey).expect(200);
      let cursor = start.body.nextCursor as string;
      const latencies: number[] = [];
      for (let i = 0; i < 10; i++) {
        const polled = s.t.http.get(`/v0/events?order=asc&wait=10&cursor=${cursor}`).set('x-api-key', b.apiKey);
        const created = await s.t.http.post(`/v0/page_groups/${groupOfB.pageGroupId}/pages`).set('x-api-key', b.apiKey).expect(201);
        const createdAt = Date.now();
        await healthy.waitUntil(() => healthy.received.some((r) => r.rawBody.includes(created.body.pageId)));
        latencies.push(healthy.received.find((r) => r.rawBody.includes(created.body.pageId))!.receivedAt - createdAt);
        const feed = await polled;
        expect(feed.status).toBe(200);
        expect(feed.body.items.map((e: { data: { pageId: string } }) => e.data.pageId)).toContain(created.body.pageId);
        cursor = feed.body.nextCursor;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      making = false;
      const made = await versionsOfA;
      // The chain stayed where it was: A's receiver failed throughout, its turn still held.
      expect(s.receiver.received.every((r) => r.status === 500 && r.body.data.pageId === page)).toBe(true);
      expect(Math.max(...latencies)).toBeLessThan(1000);

      // The turn reads of that page, as the relay and the worker plan them, with the chain in place.
      const days = (await pg.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'webhook_deliveries'::regclass`)).rows[0].n as number;
      const pair = [[s.subscription.id], [page]];
      const states = await widestNode(pg, TURN_STATES_SQL, pair);
      await pg.query('BEGIN');
      // As webhook_pass_turns runs it: sorting priced out, the turn locks, then the pass.
      await pg.query(PRICE_OUT_SORTS_SQL);
      await pg.query(LOCK_TURNS_SQL, pair);
      const pass = await widestNode(pg, PASS_TURNS_SQL, [...pair, new Date()]);
      await pg.query('ROLLBACK');
      await pg.query('BEGIN');
      await pg.query(PRICE_OUT_SORTS_SQL);
      const stalled = await widestNode(pg, STALLED_TURNS_SQL, ['', '', 100, eventIdCeiling(Date.now())]);
      await pg.query('ROLLBACK');
      for (const read of [states, pass, stalled]) expect(read.rows).toBeLessThanOrEqual(days);
      process.stdout.write(
        `ordered chain: ${CHAIN} waiting behind one held turn (${made} more versions made meanwhile); tenant B's ${latencies.length} deliveries 201 → arrival ` +
          `median ${[...latencies].sort((x, y) => x - y)[latencies.length >> 1]} ms, max ${Math.max(...latencies)} ms; turn reads' widest node: states ${states.rows}, pass ${pass.rows}, stalled ${stalled.rows} rows (${days} days)\n`,
      );
    } finally {
      making = false;
      await versionsOfA.catch(() => undefined);
      await pg.end();
      await worker.stop();
      await healthy.stop();
      await s.close();
    }
  }, 180_000);
});
