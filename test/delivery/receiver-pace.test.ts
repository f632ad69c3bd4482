import { randomBytes } from 'node:crypto';
import { eventually } from '../support/eventually';
import { rows } from '../support/platform';
import { startTestWorker } from '../support/webhook-worker';
import { webhookScenario } from '../support/webhook-scenario';

// Issue 28, items 3 and 4: receivers set the pace, through the real worker and a receiver on
// 127.0.0.1: a Retry-After is honoured, and a subscription's rate holds across two workers.

describe('a receiver that answers 429 with Retry-After', () => {
  it('gets the next attempt no sooner than it asked, though the schedule said 1 s, and then the delivery', async () => {
    const s = await webhookScenario();
    const worker = await startTestWorker(s.db.url, { env: { WEBHOOK_RETRY_SCHEDULE: '1s,1s' } });
    try {
      s.receiver.script = [{ status: 429, headers: { 'retry-after': '4' } }];
      expect(await s.createPages(1)).toEqual([201]);
      await s.receiver.waitFor(2);
      const [first, second] = s.receiver.received;
      const waited = second.receivedAt - first.receivedAt;
      expect(waited).toBeGreaterThanOrEqual(4000);
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      await eventually(() => rows<{ status: string }>(s.t, 'SELECT status FROM webhook_deliveries'), (r) => r.length === 1 && r[0].status === 'delivered');
      const log = await rows<{ status_code: number }>(s.t, 'SELECT status_code FROM webhook_delivery_attempts ORDER BY attempt_number');
      expect(log.map((a) => a.status_code)).toEqual([429, 204]);
      process.stdout.write(`pace: 429 with Retry-After: 4 (schedule 1 s): the next attempt came ${waited} ms later, and was delivered\n`);
    } finally {
      await worker.stop();
      await s.close();
    }
  }, 30_000);
});

describe('a subscription with rateLimitPerSecond 5', () => {
  it('gets all 30 events, never more than 6 in any one second, from two workers', async () => {
    const s = await webhookScenario();
    // Two worker processes' worth of workers, on one queue.
    const shared = { QUEUE_PREFIX: `{test-${randomBytes(4).toString('hex')}}` };
    const workers = [await startTestWorker(s.db.url, { env: shared }), await startTestWorker(s.db.url, { env: shared })];
    try {
      const patched = await s.t.http.patch(`/v0/webhook_subscriptions/${s.subscription.id}`).set('x-api-key', s.tenant.apiKey).send({ rateLimitPerSecond: 5 });
      expect(patched.body.rateLimitPerSecond).toBe(5);
      expect(await s.createPages(30)).toEqual(Array(30).fill(201));
      await s.receiver.waitFor(30);
      expect(s.receiver.eventIds()).toHaveLength(30);
      const times = s.receiver.received.map((r) => r.receivedAt).sort((a, b) => a - b);
      // The most arrivals in any window of one second (each window starting at an arrival).
      const busiest = Math.max(...times.map((start, i) => times.slice(i).filter((t) => t < start + 1000).length));
      expect(busiest).toBeLessThanOrEqual(6);
      const spanMs = times[times.length - 1] - times[0];
      // Each sent once and recorded once: being put off is not an attempt.
      await eventually(() => rows<{ n: number }>(s.t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'"), (r) => r[0].n === 30);
      expect(await rows(s.t, 'SELECT id FROM webhook_delivery_attempts')).toHaveLength(30);
      expect(s.receiver.received).toHaveLength(30);
      process.stdout.write(`pace: rate 5/s, 30 events, two workers: all delivered over ${spanMs} ms, at most ${busiest} in any one second\n`);
    } finally {
      for (const worker of workers) await worker.stop();
      await s.close();
    }
  }, 120_000);
});
