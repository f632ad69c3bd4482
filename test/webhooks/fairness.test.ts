import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { openTestOrm } from '../support/database';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
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
