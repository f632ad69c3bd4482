import IORedis from 'ioredis';
import { eventually } from '../support/eventually';
import { rows } from '../support/platform';
import { freePort as closedPort } from '../support/ports';
import { PrivateRedis } from '../support/redis-server';
import { ServiceProcess } from '../support/service-process';
import { testLogger } from '../support/silent-logger';
import type { TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookScenario } from '../support/webhook-scenario';
import { startTestWorker, workerEnv } from '../support/webhook-worker';

// Each scenario: its own database, receiver and queue; nothing is shared with other tests.
const setup = webhookScenario;

describe('webhook reliability', () => {
  it('works with no Redis at all: jobs go through BullMQ’s PostgreSQL backend', async () => {
    const s = await setup();
    const worker = await startTestWorker(s.db.url, { env: { REDIS_URL: '' }, localRedis: { host: '127.0.0.1', port: await closedPort() } });
    try {
      expect(worker.worker.backend.kind).toBe('postgres');
      receiver500Then204(s.receiver);
      await s.createPages(3);
      await s.receiver.waitFor(4);
      expect(s.receiver.eventIds()).toHaveLength(3);
    } finally {
      await worker.stop();
      await s.close();
    }
  });

  it('loses nothing when Redis stops while 20 pages are created (all 201) and comes back empty', async () => {
    const s = await setup();
    const redis = new PrivateRedis();
    await redis.start();
    const worker = await startTestWorker(s.db.url, { env: { REDIS_URL: redis.url } });
    try {
      await redis.stop();
      expect(await s.createPages(20)).toEqual(Array(20).fill(201));
      await redis.start();
      await eventually(() => rows<{ n: string }>(s.t, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'"), (r) => Number(r[0].n) === 20, 30_000);
      expect(s.receiver.eventIds()).toHaveLength(20);
    } finally {
      await worker.stop();
      await redis.stop();
      await s.close();
    }
  });

  it('delivers all 50 when the worker is killed with SIGKILL mid-way and started again', async () => {
    const s = await setup();
    // Ten attempts in flight at most, all of them to this one receiver (the caps are not what this tests).
    const env = workerEnv(s.db.url, { SERVICE_ROLE: 'worker', LOG_LEVEL: 'info', WEBHOOK_CONCURRENCY: '10', WEBHOOK_TENANT_CONCURRENCY: '10', WEBHOOK_ENDPOINT_CONCURRENCY: '10' });
    s.receiver.delayMs = 200;
    let first = new ServiceProcess(env);
    try {
      await first.waitFor((l) => l.msg === 'webhook worker started');
      expect(await s.createPages(50)).toEqual(Array(50).fill(201));
      await s.receiver.waitFor(5);
      first.signal('SIGKILL');
      expect(await first.exited).toBeNull();
      const before = s.receiver.eventIds().length;
      expect(before).toBeLessThan(50);

      first = new ServiceProcess(env);
      // Attempts the kill cut off stay claimed until their lock expires, then are sent again.
      await eventually(() => rows(s.t, "SELECT id FROM webhook_deliveries WHERE status <> 'delivered'"), (r) => r.length === 0, 30_000);
      expect(s.receiver.eventIds()).toHaveLength(50);
      // At least once: only a delivery in flight at the kill (10 at most) may arrive twice.
      const duplicates = s.receiver.received.length - 50;
      expect(duplicates).toBeLessThanOrEqual(10);
      process.stdout.write(`SIGKILL scenario: ${before} delivered before the kill, ${duplicates} duplicate(s) after restart\n`);
    } finally {
      first.signal('SIGTERM');
      await first.exited;
      await s.close();
    }
  }, 60_000);

  it('keeps the signing secret out of every log line and every Redis key', async () => {
    const s = await setup();
    const lines: string[] = [];
    const worker = await startTestWorker(s.db.url, { logger: testLogger(lines) });
    const prefix = worker.config.webhooks.queuePrefix;
    const redis = new IORedis('redis://127.0.0.1:6379');
    try {
      s.receiver.script = [500];
      await s.createPages(2);
      await s.receiver.waitFor(3);
      const secret: string = s.subscription.signingSecret;
      const material = [secret, secret.slice('whsec_'.length), Buffer.from(secret.slice(6), 'base64').toString('hex')];
      // The worker logs an attempt once it is recorded, after the receiver has answered it.
      await eventually(async () => lines.length, (n) => n > 2);
      for (const m of material) expect(lines.join('\n')).not.toContain(m);

      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      const dump: string[] = [];
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') dump.push((await redis.get(key)) ?? '');
        if (type === 'hash') dump.push(JSON.stringify(await redis.hgetall(key)));
        if (type === 'list') dump.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        if (type === 'zset') dump.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
        if (type === 'set') dump.push(JSON.stringify(await redis.smembers(key)));
        if (type === 'stream') dump.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
      for (const m of material) expect(dump.join('\n')).not.toContain(m);
    } finally {
      redis.disconnect();
      await worker.stop();
      await s.close();
    }
  });
});

function receiver500Then204(receiver: WebhookReceiver): void {
  receiver.script = [500];
}

export type { TestApp, TestTenant };
