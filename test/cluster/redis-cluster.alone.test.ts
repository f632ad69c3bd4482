import { randomBytes } from 'node:crypto';
import { openTestOrm } from '../support/database';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { platform, rows } from '../support/platform';
import { ApiProcess } from '../support/api-process';
import { builtCli } from '../support/cli';
import { PrivateRedisCluster } from '../support/redis-cluster';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workerEnv } from '../support/webhook-worker';
import { deliveryQueueName, shardOf } from '../../src/infrastructure/queue/bullmq-delivery.queue';

// Issue 44: the same service on a Redis Cluster of 3 masters and 3 replicas on loopback: two API
// processes and two worker processes, the queues spread over the masters by tenant, a master killed.
// Alone after the rest (scripts/test.sh): six redis-servers, two API processes, two workers.
const RATE_LIMIT = 100;
const SHARDS = 12;

let db: Awaited<ReturnType<typeof isolatedDatabase>>;
let cluster: PrivateRedisCluster;
let t: TestApp;
let apis: ApiProcess[] = [];
let bases: string[] = [];
let workers: ApiProcess[] = [];
const receiver = new WebhookReceiver();
const prefix = `lpc${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  db = await isolatedDatabase();
  cluster = new PrivateRedisCluster();
  await cluster.start(3);
  await receiver.start();
  // Tenants, keys and groups are made in process, on the same database; what runs against the
  // cluster is the built API (two processes) and two workers.
  t = await startTestApp({ orm: await openTestOrm(db.url) });
  const clusterEnv = { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.env, QUEUE_PREFIX: prefix, QUEUE_SHARDS: String(SHARDS) };
  apis = [0, 1].map(() => new ApiProcess({ ...clusterEnv, DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_MAX: String(RATE_LIMIT), RATE_LIMIT_WINDOW_SECONDS: '86400' }));
  bases = await Promise.all(apis.map((api) => api.baseUrl()));
  // Ten attempts in flight per worker and endpoint: with the receiver holding its answers, most of
  // a tenant's deliveries wait in its queue.
  workers = [0, 1].map(() => new ApiProcess({ ...workerEnv(db.url, { ...clusterEnv, WEBHOOK_ENDPOINT_CONCURRENCY: '10' }), SERVICE_ROLE: 'worker', LOG_LEVEL: 'info' }));
  await Promise.all(workers.map((worker) => worker.waitFor((l) => l.msg === 'webhook worker started')));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(apis.map((api) => api.stop()));
  await t?.close();
  await t?.orm.close(true);
  await receiver.stop();
  await cluster?.stop();
  await db?.drop();
}, 60_000);

beforeEach(() => receiver.startTest());

const call = (base: string, tenant: TestTenant, method: string, path: string, body?: object) =>
  fetch(`${base}${path}`, { method, headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });

/** A tenant subscribed to the receiver, with a page group. */
async function subscribedTenant(): Promise<{ tenant: TestTenant; pageGroupId: string }> {
  const tenant = await createTenant(t);
  const res = await call(bases[0], tenant, 'POST', '/v0/webhook_subscriptions', { url: receiver.url, events: ['page.version.created'] });
  expect(res.status).toBe(201);
  return { tenant, pageGroupId: (await platform(t).group(tenant.tenantId)).pageGroupId };
}

describe('on a Redis Cluster of 3 masters and 3 replicas', () => {
  it('delivers every event of tenants spread over the queues, pages created through two API processes and sent by two workers', async () => {
    const tenants = await Promise.all(Array.from({ length: 8 }, () => subscribedTenant()));
    // The tenants' queues are on more than one master: the work is spread, not on one tag.
    const masters = new Set(await Promise.all(tenants.map(({ tenant }) => cluster.masterOf(`${prefix}:${deliveryQueueName(shardOf(tenant.tenantId, SHARDS), SHARDS, prefix)}:wait`))));
    expect(masters.size).toBeGreaterThan(1);
    let made = 0;
    for (let i = 0; i < 5; i++) {
      await Promise.all(tenants.map(async ({ tenant, pageGroupId }, n) => {
        const res = await call(bases[(i + n) % 2], tenant, 'POST', `/v0/page_groups/${pageGroupId}/pages`);
        expect(res.status).toBe(201);
        made++;
      }));
    }
    await receiver.waitUntil(() => receiver.eventIds().length === made);
    expect(receiver.eventIds()).toHaveLength(40);
    // Each recorded delivered once (the record follows the receiver's answer).
    await eventually(() => rows<{ n: number }>(t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'"), (r) => r[0].n === 40);
  }, 60_000);

  it('shares one key\'s rate limit between the two API processes', async () => {
    const tenant = await createTenant(t);
    const window = () => Math.floor(Date.now() / 86_400_000);
    const started = window();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) statuses.push((await call(bases[i % 2], tenant, 'GET', '/v0/brands')).status);
    // One budget: 100 answered in all, then 429 from either process (checked within one window of the day).
    if (window() === started) {
      expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
      expect(statuses.slice(RATE_LIMIT)).toEqual(Array(10).fill(429));
    } else {
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    }
  }, 60_000);

  it('refuses a revoked key at once in both API processes', async () => {
    const tenant = await createTenant(t);
    // Both processes have the key in the cluster's cache.
    for (const base of bases) expect((await call(base, tenant, 'GET', '/v0/brands')).status).toBe(200);
    const revoked = builtCli(['api-key:revoke', '--id', tenant.apiKeyId], { DATABASE_URL: db.url, REDIS_CLUSTER_NODES: cluster.env });
    expect(revoked.code).toBe(0);
    for (const base of bases) expect((await call(base, tenant, 'GET', '/v0/brands')).status).toBe(401);
  }, 60_000);

  it('loses no delivery when the master holding a tenant\'s queue is killed with SIGKILL during a drain and its replica takes over', async () => {
    const { tenant, pageGroupId } = await subscribedTenant();
    // The receiver holds its answers: the attempts in flight stay in flight (10 per worker at most,
    // the endpoint's cap), and the rest of the 60 wait in the queue on the master about to die.
    receiver.parking = true;
    for (let i = 0; i < 60; i++) expect((await call(bases[i % 2], tenant, 'POST', `/v0/page_groups/${pageGroupId}/pages`)).status).toBe(201);
    await receiver.waitForParked(10);
    const master = await cluster.masterOf(`${prefix}:${deliveryQueueName(shardOf(tenant.tenantId, SHARDS), SHARDS, prefix)}:wait`);
    await cluster.kill(master);
    expect(receiver.parkedCount).toBeLessThanOrEqual(20);
    receiver.releaseParked();
    await cluster.untilHealed();
    await eventually(
      () => rows<{ n: number }>(t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = ? AND status = 'delivered'", [tenant.tenantId]),
      (r) => r[0].n === 60,
      60_000,
    );
    await receiver.waitUntil(() => receiver.eventIds().length === 60);
    process.stdout.write(`redis cluster: master ${master} killed mid-drain; all 60 delivered (${receiver.received.length - 60} duplicate(s))\n`);
    // The API processes still answer, through the promoted replica.
    for (const base of bases) expect((await call(base, tenant, 'GET', '/v0/brands')).status).toBe(200);
  }, 120_000);
});
