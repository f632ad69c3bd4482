import { Queue } from 'bullmq';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { DELIVERY_QUEUE } from '../../src/infrastructure/queue/bullmq-delivery.queue';
import { openTestOrm } from '../support/database';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookScenario } from '../support/webhook-scenario';
import { startTestWorker } from '../support/webhook-worker';

/** A receiver on 127.0.0.1 that reads each request and never answers it. */
class HangingReceiver {
  private server?: Server;
  open: ServerResponse[] = [];
  port = 0;
  async start(): Promise<void> {
    this.server = createServer((_req: IncomingMessage, res: ServerResponse) => void this.open.push(res));
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
  }
  url(path: string): string {
    return `http://127.0.0.1:${this.port}/${path}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }
}

const subscribe = (t: TestApp, tenant: TestTenant, url: string) =>
  t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send({ url, events: ['page.version.created'] }).expect(201);
const createPage = async (t: TestApp, tenant: TestTenant) => {
  const group = await platform(t).group(tenant.tenantId);
  return () => t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201);
};

// Issue 18: one tenant's hanging endpoints must not hold back everyone else's deliveries.
describe('fairness between tenants', () => {
  it("delivers tenant B's event in under a second while tenant A's 120 attempts hang", async () => {
    const db = await isolatedDatabase();
    const t = await startTestApp({ orm: await openTestOrm(db.url) });
    const hanging = new HangingReceiver();
    await hanging.start();
    const receiver = new WebhookReceiver();
    await receiver.start();
    const worker = await startTestWorker(db.url, { env: { WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_CONCURRENCY: '50', WEBHOOK_RETRY_SCHEDULE: '1h' } });
    try {
      const a = await createTenant(t, 'A');
      const b = await createTenant(t, 'B');
      for (let i = 0; i < 40; i++) await subscribe(t, a, hanging.url(`a${i}`));
      await subscribe(t, b, receiver.url);
      const pageOfA = await createPage(t, a);
      for (let i = 0; i < 3; i++) await pageOfA();
      await eventually(() => rows<{ n: string }>(t, `SELECT count(*) AS n FROM webhook_deliveries WHERE tenant_id = ?`, [a.tenantId]), (r) => Number(r[0].n) === 120);
      // A holds every slot it may: its cap (half the worker's 50), all waiting on the receiver.
      const cap = worker.config.webhooks.tenantConcurrency;
      await eventually(async () => hanging.open.length, (n) => n >= cap);

      const pageOfB = await createPage(t, b);
      const created = await pageOfB();
      const sentAt = Date.now();
      await receiver.waitFor(1);
      const latency = receiver.received[0].receivedAt - sentAt;
      expect(receiver.received[0].body.data.pageId).toBe(created.body.pageId);
      expect(latency).toBeLessThan(1000);
      expect(hanging.open.length).toBeLessThanOrEqual(cap);
      process.stdout.write(`fairness: B's delivery arrived ${latency} ms after its 201, with ${hanging.open.length} of A's attempts hanging (cap ${cap} of 50 slots)\n`);
    } finally {
      await hanging.stop();
      await worker.stop();
      await receiver.stop();
      await t.close();
      await t.orm.close(true);
      await db.drop();
    }
  }, 60_000);
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
      // The other job's four attempts found the endpoint full and finishing nothing: handed back.
      const delayed = await eventually(() => queue.getDelayed(), (jobs) => jobs.length === 1);
      expect(delayed[0].data.attempts).toHaveLength(4);
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
