import { eventually } from '../support/eventually';
import { rows } from '../support/platform';
import { ServiceProcess } from '../support/service-process';
import { firstSuccessesByPage, type ReceivedDelivery } from '../support/webhook-receiver';
import { webhookScenario } from '../support/webhook-scenario';
import { workerEnv } from '../support/webhook-worker';

/** Each page's versions in the order of their first successful receipt. */
const firstSuccesses = (received: ReceivedDelivery[]) =>
  new Map([...firstSuccessesByPage(received)].map(([page, list]) => [page, list.map((r) => r.body.data.version as number)]));

describe('ordered delivery under faults', () => {
  it('loses nothing and breaks no page\'s order when the worker is killed with SIGKILL mid-stream and started again', async () => {
    const s = await webhookScenario();
    const env = workerEnv(s.db.url, { SERVICE_ROLE: 'worker', LOG_LEVEL: 'info' });
    let worker = new ServiceProcess(env);
    try {
      await s.t.http.patch(`/v0/webhook_subscriptions/${s.subscription.id}`).set('x-api-key', s.tenant.apiKey).send({ ordering: 'page' }).expect(200);
      await worker.waitFor((l) => l.msg === 'webhook worker started');
      s.receiver.delayMs = 50;
      const pages: string[] = [];
      for (let p = 0; p < 4; p++) pages.push((await s.t.http.post(`/v0/page_groups/${s.group.pageGroupId}/pages`).set('x-api-key', s.tenant.apiKey).expect(201)).body.pageId);
      for (let v = 2; v <= 10; v++) {
        for (const page of pages) await s.t.http.post(`/v0/page_groups/${s.group.pageGroupId}/pages/${page}/versions`).set('x-api-key', s.tenant.apiKey).send({}).expect(201);
      }
      // Killed with each page part-way through its ten versions.
      await s.receiver.waitFor(10);
      worker.signal('SIGKILL');
      expect(await worker.exited).toBeNull();
      const before = s.receiver.received.length;
      expect(before).toBeLessThan(40);

      worker = new ServiceProcess(env);
      // Attempts the kill cut off stay claimed until their lease runs out, then go again; a turn
      // the kill left with nobody is passed on by the sweeper.
      await eventually(() => rows(s.t, "SELECT id FROM webhook_deliveries WHERE status <> 'delivered'"), (r) => r.length === 0, 30_000);
      const received = firstSuccesses(s.receiver.received);
      for (const page of pages) expect(received.get(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      process.stdout.write(`ordered SIGKILL: ${before} received before the kill, ${s.receiver.received.length - 40} duplicate(s) after restart\n`);
    } finally {
      worker.signal('SIGTERM');
      await worker.exited;
      await s.close();
    }
  }, 60_000);
});
