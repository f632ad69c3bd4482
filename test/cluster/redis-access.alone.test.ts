import { randomBytes } from 'node:crypto';
import IORedis, { Cluster } from 'ioredis';
import { ApiProcess } from '../support/api-process';
import { openTestOrm } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';
import { platform } from '../support/platform';
import { PrivateRedisCluster } from '../support/redis-cluster';
import { PrivateRedis } from '../support/redis-server';
import { makeTestCertificates, TestCertificates } from '../support/test-certificates';
import { createTenant, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workerEnv } from '../support/webhook-worker';

// A Redis that asks for a password and speaks TLS only (decisions.md 180): the API and the worker
// reach it with `rediss://user:password@host:port`, one server (REDIS_URL, an ACL user) and a
// Redis Cluster (REDIS_CLUSTER_NODES, `requirepass` on every node, TLS on its bus too), trusting
// the private CA through NODE_EXTRA_CA_CERTS. Alone after the rest (scripts/test.sh): seven
// redis-servers and four service processes.
const RATE_LIMIT = 5;

let db: Awaited<ReturnType<typeof isolatedDatabase>>;
let t: TestApp;
let certificates: TestCertificates;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({ orm: await openTestOrm(db.url) });
  certificates = await makeTestCertificates();
  await receiver.start();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await t?.orm.close(true);
  await receiver.stop();
  await certificates?.remove();
  await db?.drop();
});

beforeEach(() => receiver.startTest());

/** The API and a worker on `redisEnv`; a tenant's brand goes out as a signed event, and its key meets its limit. */
async function servesThrough(redisEnv: Record<string, string>): Promise<void> {
  const env = { ...redisEnv, NODE_EXTRA_CA_CERTS: certificates.caFile };
  const api = new ApiProcess({ ...env, DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_MAX: String(RATE_LIMIT), RATE_LIMIT_WINDOW_SECONDS: '86400' });
  const worker = new ApiProcess({ ...workerEnv(db.url, env), SERVICE_ROLE: 'worker', LOG_LEVEL: 'info' });
  try {
    const base = await api.baseUrl();
    await worker.waitFor((l) => l.msg === 'webhook worker started');
    const tenant = await createTenant(t);
    const call = (method: string, path: string, body?: object) =>
      fetch(`${base}${path}`, { method, headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    expect((await call('POST', '/v0/webhook_subscriptions', { url: receiver.url, events: ['page.version.created'] })).status).toBe(201);
    const { pageGroupId } = await platform(t).group(tenant.tenantId);
    expect((await call('POST', `/v0/page_groups/${pageGroupId}/pages`)).status).toBe(201);
    // Through the queue in this Redis: relayed, enqueued, taken and sent by the worker.
    await receiver.waitFor(1);
    expect(receiver.received[0].headers['x-webhook-event']).toBe('page.version.created');
    // The limit is counted in this Redis (a limiter that cannot reach it lets everything through):
    // two requests made, three more answered, then 429s (within one day's window).
    const day = () => Math.floor(Date.now() / 86_400_000);
    const started = day();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call('GET', '/v0/brands')).status);
    if (day() === started) expect(statuses).toEqual([200, 200, 200, 429, 429]);
    else expect(statuses).toContain(200);
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
  }
}

describe('a Redis with a password and TLS', () => {
  it('serves the API and the worker through one server as an ACL user over TLS, and refuses a client without the password', async () => {
    const user = { name: `lp${randomBytes(3).toString('hex')}`, password: randomBytes(12).toString('base64url') };
    const redis = new PrivateRedis({ user, tls: certificates });
    await redis.start();
    try {
      const anonymous = new IORedis(`rediss://127.0.0.1:${redis.port}`, { tls: { ca: certificates.ca }, lazyConnect: true, maxRetriesPerRequest: 0 });
      anonymous.on('error', () => {});
      await expect(anonymous.connect().then(() => anonymous.ping())).rejects.toThrow();
      anonymous.disconnect();
      // The same TLS with the user's password gets in: it is the password that was missing.
      const admitted = new IORedis(redis.url, { tls: { ca: certificates.ca }, lazyConnect: true, maxRetriesPerRequest: 0 });
      await admitted.connect();
      expect(await admitted.ping()).toBe('PONG');
      admitted.disconnect();
      expect(redis.url).toMatch(/^rediss:\/\/lp[0-9a-f]{6}:/);
      await servesThrough({ REDIS_URL: redis.url, REDIS_CLUSTER_NODES: '' });
    } finally {
      await redis.stop();
    }
  }, 90_000);

  it('serves them through a Redis Cluster whose nodes ask for a password and speak TLS, bus included', async () => {
    const password = randomBytes(12).toString('base64url');
    const cluster = new PrivateRedisCluster({ password, tls: certificates });
    await cluster.start(3);
    try {
      const anonymous = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0] }], { redisOptions: { tls: { ca: certificates.ca } }, lazyConnect: true, clusterRetryStrategy: () => null });
      anonymous.on('error', () => {});
      await expect(anonymous.connect().then(() => anonymous.ping())).rejects.toThrow();
      anonymous.disconnect();
      expect(cluster.env.split(',').every((node) => node.startsWith('rediss://default:'))).toBe(true);
      await servesThrough({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.env, QUEUE_PREFIX: `lpa${randomBytes(3).toString('hex')}` });
    } finally {
      await cluster.stop();
    }
  }, 120_000);
});
