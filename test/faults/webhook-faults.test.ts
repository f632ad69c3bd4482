import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { eventually } from '../support/eventually';
import { rows } from '../support/platform';
import { PrivateRedis } from '../support/redis-server';
import { testLogger } from '../support/silent-logger';
import { TcpProxy } from '../support/tcp-proxy';
import { webhookScenario } from '../support/webhook-scenario';
import { startTestWorker } from '../support/webhook-worker';

// Issue 18: whatever fails inside an attempt, the delivery is attempted again within one lease
// plus one sweep, and recorded. Real faults: the worker reaches PostgreSQL through a loopback TCP
// proxy that the test cuts; Redis is a private redis-server the test flushes.

async function setup(options: { workerEnv?: Record<string, string>; redisUrl?: string; worker?: boolean } = {}) {
  const scenario = await webhookScenario();
  const { db, t } = scenario;
  const target = new URL(db.url);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const viaProxy = new URL(db.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const lines: string[] = [];
  const env = { ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}), ...options.workerEnv };
  const worker = options.worker === false ? undefined : await startTestWorker(viaProxy.toString(), { logger: testLogger(lines), env });
  const createPages = async (n: number) => expect(await scenario.createPages(n)).toEqual(Array(n).fill(201));
  const delivered = async () => Number((await rows<{ n: string }>(t, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'"))[0].n);
  const close = async () => {
    await proxy.start(proxy.port).catch(() => {});
    scenario.receiver.releaseParked();
    await worker?.stop();
    await proxy.stop();
    await scenario.close();
  };
  return { ...scenario, proxy, worker, lines, createPages, delivered, close };
}

/** Attempts that failed inside, as the worker logged them (a job may carry several). */
const attemptFailures = (lines: string[]) =>
  lines.filter((l) => l.includes('delivery attempt failed inside')).reduce((sum, l) => sum + (JSON.parse(l) as { attempts: unknown[] }).attempts.length, 0);

describe('webhook deliveries survive database faults', () => {
  it('delivers every event when all connections are cut while attempts are in flight', async () => {
    const s = await setup();
    try {
      s.receiver.parking = true;
      await s.createPages(10);
      await s.receiver.waitForParked(10);
      // The receiver has all ten; PostgreSQL goes away before any answer can be recorded.
      await s.proxy.stop();
      const cutAt = Date.now();
      s.receiver.releaseParked();
      await eventually(async () => attemptFailures(s.lines), (n) => n >= 10);
      await s.proxy.start(s.proxy.port);
      const backAt = Date.now();
      await eventually(() => s.delivered(), (n) => n === 10, 30_000);
      expect(s.receiver.eventIds()).toHaveLength(10);
      process.stdout.write(`faults: cut in flight for ${backAt - cutAt} ms; all 10 recorded delivered ${Date.now() - backAt} ms after PostgreSQL came back (lease ${s.worker!.config.webhooks.attemptLockMs} ms)\n`);
    } finally {
      await s.close();
    }
  });

  it('delivers every event when all connections are cut while the attempts are being recorded', async () => {
    const s = await setup();
    const blocker = new Client({ connectionString: s.db.url });
    await blocker.connect();
    try {
      // Attempt records wait on this lock: the cut then comes in the middle of recording them.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE webhook_delivery_attempts IN SHARE MODE');
      await s.createPages(10);
      await s.receiver.waitFor(10);
      await eventually(
        async () => (await blocker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO webhook_delivery_attempts%'`)).rows[0].n,
        (n) => n >= 1,
      );
      await s.proxy.stop();
      await blocker.query('COMMIT');
      await eventually(async () => attemptFailures(s.lines), (n) => n >= 1);
      await s.proxy.start(s.proxy.port);
      const backAt = Date.now();
      await eventually(() => s.delivered(), (n) => n === 10, 30_000);
      expect(s.receiver.eventIds()).toHaveLength(10);
      process.stdout.write(`faults: cut while recording; all 10 recorded delivered ${Date.now() - backAt} ms after PostgreSQL came back\n`);
    } finally {
      await blocker.end().catch(() => {});
      await s.close();
    }
  });
});

describe('webhook deliveries survive Redis faults', () => {
  it('delivers every pending delivery after Redis loses all its data (FLUSHALL)', async () => {
    const redis = new PrivateRedis();
    await redis.start();
    const s = await setup({ redisUrl: redis.url, workerEnv: { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' } });
    const admin = new IORedis(redis.url);
    try {
      s.receiver.fallback = 500;
      await s.createPages(10);
      await s.receiver.waitFor(10);
      // Every delivery now waits for its retry as a delayed job in Redis, and Redis forgets them.
      await eventually(() => rows<{ n: string }>(s.t, 'SELECT count(*) AS n FROM webhook_delivery_attempts'), (r) => Number(r[0].n) >= 10);
      await admin.flushall();
      const flushedAt = Date.now();
      s.receiver.fallback = 204;
      await eventually(() => s.delivered(), (n) => n === 10, 30_000);
      process.stdout.write(`faults: FLUSHALL with 10 pending; all delivered ${Date.now() - flushedAt} ms later\n`);
    } finally {
      admin.disconnect();
      await s.close();
      await redis.stop();
    }
  });

  it('re-enqueues stranded deliveries even when 2,000 failed jobs hold their usual job ids', async () => {
    const redis = new PrivateRedis();
    await redis.start();
    const s = await setup({ redisUrl: redis.url, worker: false });
    const prefix = '{faults}';
    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const pg = new Client({ connectionString: s.db.url });
    await pg.connect();
    try {
      // 2,010 deliveries that are due and have no live job, oldest first.
      const ids = Array.from({ length: 2010 }, () => newTypeId('whdlv'));
      const events = ids.map(() => newTypeId('evt'));
      await pg.query(
        `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
         SELECT e, $1, 'page.version.created', '{}', now(), now() FROM unnest($2::text[]) AS e`,
        [s.tenant.tenantId, events],
      );
      await pg.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
         SELECT d, $1, $2, e, 'page.version.created', 'pending', 0, now() - interval '1 hour' + n * interval '1 millisecond', now(), now()
         FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS x(d, e, n)`,
        [s.tenant.tenantId, s.subscription.id, ids, events],
      );
      // The 2,000 oldest have failed jobs in Redis under their usual ids, as an older version left them.
      const queue = new Queue('webhook-deliveries', { connection, prefix });
      await queue.addBulk(ids.slice(0, 2000).map((id) => ({ name: 'deliver', data: { deliveryId: id, attempt: 1 }, opts: { jobId: `${id}.1`, removeOnFail: false } })));
      const failing = new Worker('webhook-deliveries', async () => { throw new Error('left over'); }, { connection, prefix, concurrency: 50 });
      await eventually(() => queue.getFailedCount(), (n) => n === 2000, 30_000);
      await failing.close();
      await queue.close();

      const worker = await startTestWorker(s.db.url, { env: { REDIS_URL: redis.url, QUEUE_PREFIX: prefix } });
      const started = Date.now();
      try {
        await eventually(() => s.delivered(), (n) => n === 2010, 60_000);
      } finally {
        await worker.stop();
      }
      expect(new Set(s.receiver.eventIds())).toEqual(new Set(events));
      process.stdout.write(`faults: 2,010 stranded behind 2,000 failed jobs, all delivered in ${Date.now() - started} ms\n`);
    } finally {
      connection.disconnect();
      await pg.end();
      await s.close();
      await redis.stop();
    }
  }, 90_000);
});
