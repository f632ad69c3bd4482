import { Queue } from 'bullmq';
import { DELIVERY_QUEUE } from '../../src/infrastructure/queue/bullmq-delivery.queue';
import { openTestOrm } from '../support/database';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { platform, rows } from '../support/platform';
import { SharedHost } from '../support/shared-host';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { webhookScenario } from '../support/webhook-scenario';
import { startTestWorker } from '../support/webhook-worker';
import { subscriptionBody } from '../support/builders/subscriptions';

const subscribe = (t: TestApp, tenant: TestTenant, url: string) =>
  t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(url)).expect(201);
const createPage = async (t: TestApp, tenant: TestTenant) => {
  const group = await platform(t).group(tenant.tenantId);
  return () => t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201);
};

/**
 * The worker with its default caps; its hanging attempts stay hanging for the whole test (a
 * minute's timeout, a lease above it) and are not retried within it.
 */
const hangingWorld = async (env: Record<string, string> = {}) => {
  const db = await isolatedDatabase();
  const t = await startTestApp({ orm: await openTestOrm(db.url) });
  const worker = await startTestWorker(db.url, { env: { WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_ATTEMPT_LOCK_MS: '120000', WEBHOOK_RETRY_SCHEDULE: '1h', ...env } });
  const hosts: SharedHost[] = [];
  return {
    t,
    worker,
    host: async () => {
      const host = new SharedHost();
      await host.start();
      hosts.push(host);
      return host;
    },
    hanging: () => hosts.reduce((n, h) => n + h.open.length, 0),
    close: async () => {
      for (const host of hosts) await host.stop();
      await worker.stop();
      await t.close();
      await t.orm.close(true);
      await db.drop();
    },
  };
};

/** Creates a page of `tenant` and resolves with the time from its 201 to its delivery's arrival at `host`. */
async function deliveryLatency(t: TestApp, tenant: TestTenant, host: SharedHost, path: string): Promise<number> {
  const created = await (await createPage(t, tenant))();
  const sentAt = Date.now();
  const arrival = await eventually(async () => host.arrivals.find((a) => a.path === `/${path}` && a.body.includes(created.body.pageId)), (a) => a !== undefined);
  return arrival!.at - sentAt;
}

// Issue 28: caps count what a tenant owns, so no tenant's hanging receivers hold back another's.
describe('fairness by owner', () => {
  it("delivers tenant B's event within a second on the very host where tenant A's 40 paths hang", async () => {
    const w = await hangingWorld();
    try {
      const shared = await w.host();
      const a = await createTenant(w.t, 'A');
      const b = await createTenant(w.t, 'B');
      for (let i = 0; i < 40; i++) await subscribe(w.t, a, shared.url(`hang/a${i}`));
      await subscribe(w.t, b, shared.url('b'));
      const pageOfA = await createPage(w.t, a);
      for (let i = 0; i < 3; i++) await pageOfA();
      // A holds all it may on that host: its cap per tenant and origin.
      const cap = w.worker.config.webhooks.endpointConcurrency;
      await eventually(async () => w.hanging(), (n) => n >= cap);
      const latency = await deliveryLatency(w.t, b, shared, 'b');
      expect(latency).toBeLessThan(1000);
      expect(w.hanging()).toBe(cap);
      process.stdout.write(`fairness: on one host, B's delivery arrived ${latency} ms after its 201 while ${w.hanging()} of A's 120 attempts hung there (A's cap on that origin ${cap})\n`);
    } finally {
      await w.close();
    }
  }, 90_000);

  it.each([
    ['with the default caps', {}, 180],
    // Caps small enough for the three to fill the worker (30 slots, and a noisy tenant that came
    // last to a full worker may have taken one of the reserve): the fourth gets one from the reserve.
    ['when they fill the whole worker', { WEBHOOK_CONCURRENCY: '30', WEBHOOK_TENANT_CONCURRENCY: '20', WEBHOOK_ENDPOINT_CONCURRENCY: '20' }, 30],
  ])("delivers a fourth tenant's event within a second while three tenants' attempts hang, %s", async (_, env, hangingAtOnce) => {
    const w = await hangingWorld(env);
    try {
      const noisy = [];
      for (let k = 0; k < 3; k++) {
        const tenant = await createTenant(w.t, `noisy ${k}`);
        // Twenty subscriptions on two hosts of the tenant's own (under its default cap per origin).
        const hosts = [await w.host(), await w.host()];
        for (let i = 0; i < 20; i++) await subscribe(w.t, tenant, hosts[i % 2].url(`hang/${k}-${i}`));
        noisy.push(tenant);
      }
      for (const tenant of noisy) {
        const page = await createPage(w.t, tenant);
        for (let i = 0; i < 3; i++) await page();
      }
      const hanging = await eventually(async () => w.hanging(), (n) => n >= hangingAtOnce, 30_000);
      const quiet = await createTenant(w.t, 'quiet');
      const healthy = await w.host();
      await subscribe(w.t, quiet, healthy.url('quiet'));
      const latency = await deliveryLatency(w.t, quiet, healthy, 'quiet');
      expect(latency).toBeLessThan(1000);
      const { concurrency, tenantConcurrency } = w.worker.config.webhooks;
      process.stdout.write(`fairness: a fourth tenant's delivery arrived ${latency} ms after its 201 while 3 tenants' ${hanging} attempts hung (of 180; caps per worker ${concurrency}, per tenant ${tenantConcurrency})\n`);
    } finally {
      await w.close();
    }
  }, 90_000);
});

// A job carries up to WEBHOOK_ATTEMPTS_PER_JOB attempts of one tenant to one endpoint; the caps
// still count attempts, and those over the cap go back to the queue without being sent.
describe('jobs of several attempts under the caps', () => {
  it('sends no more than the endpoint cap at once, hands the rest back, and delivers every attempt once', async () => {
    const s = await webhookScenario();
    // Eight events wait in the outbox: the worker's relay makes them two jobs of four.
    expect(await s.createPages(8)).toEqual(Array(8).fill(201));
    s.receiver.parking = true;
    const worker = await startTestWorker(s.db.url, {
      env: { WEBHOOK_ATTEMPTS_PER_JOB: '4', WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_TENANT_CONCURRENCY: '2', WEBHOOK_TIMEOUT_MS: '10000' },
    });
    const queue = new Queue(DELIVERY_QUEUE, { connection: { url: 'redis://127.0.0.1:6379' }, prefix: worker.config.webhooks.queuePrefix });
    try {
      await s.receiver.waitForParked(2);
      // The six attempts that found the endpoint full and finishing nothing were handed back,
      // each job with only its own: the first job's two over the cap, the other job's four.
      const delayed = await eventually(() => queue.getDelayed(), (jobs) => jobs.reduce((n, job) => n + (job.data.attempts?.length ?? 0), 0) === 6);
      expect(delayed.map((job) => job.data.attempts!.length).sort()).toEqual([2, 4]);
      expect(s.receiver.parkedCount).toBe(2);
      s.receiver.releaseParked();
      await eventually(() => rows<{ n: string }>(s.t, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'"), (r) => Number(r[0].n) === 8, 15_000);
      // Each attempt was sent and recorded once: none was sent while it was handed back.
      expect(s.receiver.received).toHaveLength(8);
      expect(s.receiver.eventIds()).toHaveLength(8);
      expect(await rows(s.t, 'SELECT id FROM webhook_delivery_attempts')).toHaveLength(8);
    } finally {
      await queue.close();
      await worker.stop();
      await s.close();
    }
  }, 30_000);
});
