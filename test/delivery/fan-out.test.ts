import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { RELAY_ROUND_ROWS } from '../../src/application/webhook/relay/planned-outbox-relay';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { openTestOrm } from '../support/database';
import { rows } from '../support/platform';
import { ServiceProcess } from '../support/service-process';
import { createTenant, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workerEnv } from '../support/webhook-worker';
import { subscriptionBody } from '../support/builders/subscriptions';

const PRODUCTION_NODE_FLAGS = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'))
  .scripts['start:prod'].split(' ')
  .filter((word: string) => word.startsWith('--'));

const subscribe = (t: TestApp, apiKey: string, url: string) => t.http.post('/v0/webhook_subscriptions').set('x-api-key', apiKey).send(subscriptionBody(url));

describe('subscriptions per tenant', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_SUBSCRIPTIONS_MAX: '3' } });
  });
  afterAll(() => t.close());

  it('refuses the one past the limit with 422 LIMIT_EXCEEDED, writing nothing; a deletion makes room', async () => {
    const tenant = await createTenant(t);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await subscribe(t, tenant.apiKey, `https://hooks.example.com/${i}`).expect(201)).body.id);
    const refused = await subscribe(t, tenant.apiKey, 'https://hooks.example.com/4');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 'LIMIT_EXCEEDED',
      message: 'A tenant may have at most 3 webhook subscriptions; delete one first.',
      requestId: refused.headers['x-request-id'],
      details: { resource: 'webhook subscriptions', limit: 3 },
    });
    expect(await rows(t, 'SELECT id FROM webhook_subscriptions WHERE tenant_id = ?', [tenant.tenantId])).toHaveLength(3);
    // Another tenant has its own limit.
    const other = await createTenant(t);
    await subscribe(t, other.apiKey, 'https://hooks.example.com/other').expect(201);
    await t.http.delete(`/v0/webhook_subscriptions/${made[0]}`).set('x-api-key', tenant.apiKey).expect(204);
    await subscribe(t, tenant.apiKey, 'https://hooks.example.com/again').expect(201);
  });

  it('lets exactly the limit through when creations race', async () => {
    const tenant = await createTenant(t);
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => subscribe(t, tenant.apiKey, `https://hooks.example.com/race/${i}`).then((r) => r.status)));
    expect(statuses.sort()).toEqual([201, 201, 201, ...Array(7).fill(422)]);
    expect(await rows(t, 'SELECT id FROM webhook_subscriptions WHERE tenant_id = ? AND deleted_at IS NULL', [tenant.tenantId])).toHaveLength(3);
  });
});

// Issue 18: the relay writes deliveries in rounds bounded by rows, so its memory does not grow
// with a tenant's subscriptions.
describe('fan-out of 500 events to 100 subscriptions', () => {
  it('makes all 50,000 deliveries in rounds of at most RELAY_ROUND_ROWS, and prints the worker’s peak memory', async () => {
    const db = await isolatedDatabase();
    const t = await startTestApp({ orm: await openTestOrm(db.url) });
    const receiver = new WebhookReceiver();
    await receiver.start();
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    let worker: ServiceProcess | undefined;
    try {
      const tenant = await createTenant(t);
      for (let i = 0; i < 100; i++) await subscribe(t, tenant.apiKey, `${receiver.url}/${i}`).expect(201);
      const events = Array.from({ length: 500 }, () => newTypeId('evt'));
      await pg.query(
        `INSERT INTO outbox_events (id, tenant_id, type, body, created_at) SELECT e, $1, 'page.version.created', '{}', now() FROM unnest($2::text[]) AS e`,
        [tenant.tenantId, events],
      );
      const started = Date.now();
      // With the production memory settings (package.json `start`): an unbounded relay would run out.
      worker = new ServiceProcess({ ...workerEnv(db.url, { LOG_LEVEL: 'info' }), SERVICE_ROLE: 'worker' }, PRODUCTION_NODE_FLAGS);
      await eventually(async () => Number((await pg.query('SELECT count(*) AS n FROM webhook_deliveries')).rows[0].n), (n) => n === 50_000, 60_000);
      const seconds = (Date.now() - started) / 1000;
      const status = readFileSync(`/proc/${worker.pid}/status`, 'utf8');
      const peakMb = Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
      const published = Number((await pg.query('SELECT count(*) AS n FROM event_feed')).rows[0].n);
      expect(published).toBe(500);
      expect(worker.lines.some((line) => line.msg === 'webhook worker started')).toBe(true);
      // Each round's deliveries were made at one time (one `now`): no round made more than the bound.
      const { rows: rounds } = await pg.query('SELECT created_at, count(*)::int AS n FROM webhook_deliveries GROUP BY created_at ORDER BY n DESC LIMIT 1');
      expect(rounds[0].n).toBeLessThanOrEqual(RELAY_ROUND_ROWS);
      process.stdout.write(`fan-out: 500 events × 100 subscriptions → 50,000 deliveries in ${seconds.toFixed(1)} s; largest round ${rounds[0].n} rows; worker peak RSS ${peakMb} MB\n`);
    } finally {
      await worker?.stop();
      await pg.end();
      await receiver.stop();
      await t.close();
      await t.orm.close(true);
      await db.drop();
    }
  }, 90_000);
});
