import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { rssMb } from '../support/process-memory';
import { openTestOrm } from '../support/database';
import { platform } from '../support/platform';
import { ServiceProcess } from '../support/service-process';
import { SharedHost } from '../support/shared-host';
import { createTenant, startTestApp } from '../support/test-app';
import { workerEnv } from '../support/webhook-worker';
import { subscriptionBody } from '../support/builders/subscriptions';

// Issue 28, item 2: an attempt waiting on a receiver costs a socket and a few kilobytes, not a
// thread: the built worker, as its own process, with 1,000 attempts hanging at once.
const HANGING = 1000;


describe('the worker process with 1,000 attempts hanging', () => {
  it('holds them all in flight and stays under 300 MB resident', async () => {
    const db = await isolatedDatabase();
    const t = await startTestApp({ orm: await openTestOrm(db.url) });
    const host = new SharedHost();
    await host.start();
    const worker = new ServiceProcess(
      workerEnv(db.url, {
        SERVICE_ROLE: 'worker',
        LOG_LEVEL: 'info',
        WEBHOOK_CONCURRENCY: String(HANGING),
        WEBHOOK_TENANT_CONCURRENCY: String(HANGING),
        WEBHOOK_ENDPOINT_CONCURRENCY: String(HANGING),
        WEBHOOK_TIMEOUT_MS: '60000',
        WEBHOOK_ATTEMPT_LOCK_MS: '120000',
        WEBHOOK_RETRY_SCHEDULE: '1h',
      }),
      ['--max-old-space-size=256', '--max-semi-space-size=16'],
    );
    try {
      await worker.waitFor((l) => l.msg === 'webhook worker started');
      const idle = rssMb(worker.pid);
      // Ten subscriptions and a hundred pages: 1,000 deliveries, every one to a path that hangs.
      const tenant = await createTenant(t);
      for (let i = 0; i < 10; i++) {
        await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(host.url(`hang/${i}`))).expect(201);
      }
      const group = await platform(t).group(tenant.tenantId);
      for (let i = 0; i < HANGING / 10; i++) await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201);
      await eventually(async () => host.open.length, (n) => n === HANGING, 60_000);
      const loaded = rssMb(worker.pid);
      expect(loaded).toBeLessThan(300);
      process.stdout.write(`worker memory: ${HANGING} attempts hanging at once: RSS ${loaded.toFixed(0)} MB (${idle.toFixed(0)} MB idle before)\n`);
    } finally {
      await host.stop();
      await worker.stop();
      await t.close();
      await t.orm.close(true);
      await db.drop();
    }
  }, 120_000);
});
