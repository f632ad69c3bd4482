import { eventually } from '../support/eventually';
import { subscriptionBody } from '../support/builders/subscriptions';
import { startTestWorker } from '../support/webhook-worker';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookScenario } from '../support/webhook-scenario';

// Issue 42, item 6: health events cannot feed themselves. A receiver that fails ten attempts and
// then answers the breaker's probe, over and over for a minute, through the real worker: the
// breaker opens and closes every cycle, but the tenant is told once (a failing, then its
// recovered), the subscription never receives the events about itself, and another subscription
// of the tenant that lists them receives them.
const HEALTH = ['webhook_subscription.failing', 'webhook_subscription.recovered'];
const LOOP_MS = 60_000;

describe('health events', () => {
  it('are damped to one failing and one recovered while a receiver fails and recovers in a loop, and never go to the subscription they are about', async () => {
    const s = await webhookScenario();
    const worker = await startTestWorker(s.db.url, { env: { WEBHOOK_RETRY_SCHEDULE: '500ms,1s,2s', WEBHOOK_BREAKER_FAILURES: '10' } });
    const watcherReceiver = new WebhookReceiver();
    await watcherReceiver.start();
    try {
      // The failing subscription lists its own health events too: it must not get them.
      const patched = await s.t.http.patch(`/v0/webhook_subscriptions/${s.subscription.id}`).set('x-api-key', s.tenant.apiKey).send({ events: ['page.version.created', ...HEALTH] });
      expect(patched.status).toBe(200);
      const watcher = await s.t.http.post('/v0/webhook_subscriptions').set('x-api-key', s.tenant.apiKey).send(subscriptionBody(watcherReceiver.url, { events: HEALTH }));
      expect(watcher.status).toBe(201);
      // Ten failures, then a success (the probe), again and again.
      s.receiver.script = Array.from({ length: 400 }, () => [...Array(10).fill(500), 204]).flat();
      const started = Date.now();
      let pages = 0;
      while (Date.now() - started < LOOP_MS) {
        expect(await s.createPages(1)).toEqual([201]);
        pages++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The loop went round: the breaker was closed by many probes that succeeded.
      const recoveries = s.receiver.received.filter((_, i) => i % 11 === 10).length;
      expect(recoveries).toBeGreaterThanOrEqual(5);
      // The tenant's event log: one failing and one recovered, for all those cycles.
      const events = async (type: string) => (await s.t.http.get(`/v0/events?type=${type}`).set('x-api-key', s.tenant.apiKey)).body.items as { data: { id: string } }[];
      const failing = await events('webhook_subscription.failing');
      const recovered = await events('webhook_subscription.recovered');
      expect(failing.length + recovered.length).toBeLessThanOrEqual(2);
      expect(failing.map((e) => e.data.id)).toEqual([s.subscription.id]);
      // The watcher is told both; the subscription they are about, nothing about itself.
      const told = await eventually(
        async () => new Set(watcherReceiver.received.map((r) => String(r.headers['x-webhook-event']))),
        (kinds) => kinds.has('webhook_subscription.failing') && (recovered.length === 0 || kinds.has('webhook_subscription.recovered')),
      );
      expect([...told].every((kind) => HEALTH.includes(kind))).toBe(true);
      expect(s.receiver.received.filter((r) => String(r.headers['x-webhook-event']).startsWith('webhook_subscription.'))).toEqual([]);
      process.stdout.write(
        `health feedback: ${pages} pages in ${LOOP_MS / 1000} s to a receiver failing 10 and answering 1, ${recoveries} probes answered: ${failing.length} failing and ${recovered.length} recovered told\n`,
      );
    } finally {
      await worker.stop();
      await watcherReceiver.stop();
      await s.close();
    }
  }, LOOP_MS + 60_000);
});
