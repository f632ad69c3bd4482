import { eventually } from '../support/eventually';
import { rows } from '../support/platform';
import { startTestWorker } from '../support/webhook-worker';
import { webhookScenario } from '../support/webhook-scenario';
import { subscriptionBody } from '../support/builders/subscriptions';

// Issue 30: endpoint health through the real worker and receivers on 127.0.0.1.
const OPERATIONAL = ['webhook_subscription.failing', 'webhook_subscription.recovered', 'webhook_subscription.disabled'];

type Scenario = Awaited<ReturnType<typeof webhookScenario>>;
const subscriptionOf = async (s: Scenario, id = s.subscription.id) => (await s.t.http.get(`/v0/webhook_subscriptions/${id}`).set('x-api-key', s.tenant.apiKey)).body;
const eventsOf = async (s: Scenario, type: string) => (await s.t.http.get(`/v0/events?type=${type}`).set('x-api-key', s.tenant.apiKey)).body.items;
const attempts = async (s: Scenario) => (await rows<{ n: number }>(s.t, 'SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE subscription_id = ?', [s.subscription.id]))[0].n;

/** A scenario of its own and a worker with `env`, taken down after `test` whatever happens. */
async function withWorker(env: Record<string, string>, test: (s: Scenario) => Promise<void>): Promise<void> {
  const s = await webhookScenario();
  const worker = await startTestWorker(s.db.url, { env });
  try {
    await test(s);
  } finally {
    await worker.stop();
    await s.close();
  }
}

describe('endpoint health', () => {
  it('counts failures and a success on the subscription, and a failing endpoint shows when it will be turned off', () =>
    withWorker({ WEBHOOK_RETRY_SCHEDULE: '200ms,200ms' }, async (s) => {
      s.receiver.script = [500, 500];
      expect(await s.createPages(1)).toEqual([201]);
      const failing = await eventually(() => subscriptionOf(s), (sub) => sub.health.consecutiveFailures === 2);
      expect(failing.health).toMatchObject({ state: 'failing', lastSuccessAt: null, disabledReason: null });
      expect(Date.parse(failing.health.disableAt) - Date.parse(failing.health.lastFailureAt)).toBeGreaterThan(4 * 86_400_000);
      const healthy = await eventually(() => subscriptionOf(s), (sub) => sub.health.lastSuccessAt !== null);
      expect(healthy.health).toMatchObject({ state: 'healthy', consecutiveFailures: 0, disableAt: null, disabledReason: null });
      expect(Date.parse(healthy.health.lastSuccessAt)).toBeGreaterThanOrEqual(Date.parse(failing.health.lastFailureAt));
      // The list answers the same health.
      const listed = (await s.t.http.get('/v0/webhook_subscriptions').set('x-api-key', s.tenant.apiKey)).body.items[0];
      expect(listed.health).toEqual(healthy.health);
    }), 30_000);

  it('holds deliveries behind an open breaker and probes at the schedule’s gaps, then delivers everything once a probe succeeds', () =>
    withWorker({ WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s', WEBHOOK_BREAKER_FAILURES: '10' }, async (s) => {
      const watcher = (await s.t.http.post('/v0/webhook_subscriptions').set('x-api-key', s.tenant.apiKey).send(subscriptionBody(`${s.receiver.url}/watch`, { events: OPERATIONAL }))).body;
      s.receiver.fallback = 500;
      const started = Date.now();
      expect(await s.createPages(30)).toEqual(Array(30).fill(201));
      // Seven failed probes after the breaker opened (gaps 1 s, 2 s, then 3 s): about 20 s, long
      // past the point where, without it, every delivery's four attempts (120) would have been spent.
      const open = await eventually(async () => (await rows<{ breaker_probes: number }>(s.t, 'SELECT breaker_probes FROM webhook_subscriptions WHERE id = ?', [s.subscription.id]))[0], (r) => r.breaker_probes >= 7, 40_000);
      expect(open.breaker_probes).toBeGreaterThanOrEqual(7);
      const seconds = (Date.now() - started) / 1000;
      const made = await attempts(s);
      expect(made).toBeLessThan(90);
      const failing = (await subscriptionOf(s)).health;
      expect(failing.state).toBe('failing');
      // The view says the breaker is open and when the next probe goes.
      expect(failing).toMatchObject({ breaker: 'open', nextProbeAt: expect.any(String) });
      // Every failed attempt counts (read a moment after the attempts, so perhaps a few more).
      expect(failing.consecutiveFailures).toBeGreaterThanOrEqual(made);
      // Nothing held has failed: held attempts use none of their schedule.
      expect(await rows(s.t, "SELECT id FROM webhook_deliveries WHERE subscription_id = ? AND status = 'failed'", [s.subscription.id])).toEqual([]);
      s.receiver.fallback = 204;
      const fixedAt = Date.now();
      const delivered = await eventually(
      async () => (await rows<{ n: number }>(s.t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'delivered'", [s.subscription.id]))[0].n,
      (n) => n === 30,
      60_000,
      );
      expect(delivered).toBe(30);
      const arrivedIn = (Date.now() - fixedAt) / 1000;
      expect((await subscriptionOf(s)).health).toMatchObject({ state: 'healthy', consecutiveFailures: 0, breaker: 'closed', nextProbeAt: null });
      // The events about it: in the log, and delivered to a subscription that lists them.
      expect(await eventsOf(s, 'webhook_subscription.failing')).toHaveLength(1);
      expect(await eventsOf(s, 'webhook_subscription.recovered')).toHaveLength(1);
      const told = await eventually(
      async () => s.receiver.received.filter((r) => r.headers['x-webhook-event']?.toString().startsWith('webhook_subscription.') && (r.body as { data: { id: string } }).data.id === s.subscription.id),
      // Each at least once (the watcher answered 500 too while the receiver failed, so some came again).
      (found) => new Set(found.map((r) => r.headers['x-webhook-event'])).size === 2,
      );
      expect(new Set(told.map((r) => r.headers['x-webhook-event']))).toEqual(new Set(['webhook_subscription.failing', 'webhook_subscription.recovered']));
      expect(watcher.id).toMatch(/^whsub_/);
      process.stdout.write(`health: 30 events to a receiver answering 500: ${made} attempts in ${seconds.toFixed(1)} s with the breaker open (${open.breaker_probes} probes); once it answered 204, all 30 delivered ${arrivedIn.toFixed(1)} s later\n`);
    }), 120_000);

  it('turns the subscription off at a 410 (gone), tells another subscription, and keeps test and recover working on it', () =>
    withWorker({}, async (s) => {
      const watcher = (await s.t.http.post('/v0/webhook_subscriptions').set('x-api-key', s.tenant.apiKey).send(subscriptionBody(`${s.receiver.url}/watch`, { events: OPERATIONAL }))).body;
      const since = new Date(Date.now() - 1000).toISOString();
      s.receiver.script = [410];
      expect(await s.createPages(1)).toEqual([201]);
      const off = await eventually(() => subscriptionOf(s), (sub) => sub.active === false);
      expect(off.health).toMatchObject({ state: 'disabled', disabledReason: 'gone', disableAt: null });
      const [event] = await eventsOf(s, 'webhook_subscription.disabled');
      expect(event.data).toMatchObject({ id: s.subscription.id, active: false, health: { state: 'disabled', disabledReason: 'gone' } });
      expect(event.data).not.toHaveProperty('signingSecret');
      await eventually(async () => s.receiver.received.filter((r) => r.headers['x-webhook-event'] === 'webhook_subscription.disabled'), (found) => found.length === 1);
      // Off, it still takes a test and a recovery: the customer tries the receiver before turning it on.
      const base = `/v0/webhook_subscriptions/${s.subscription.id}`;
      expect((await s.t.http.post(`${base}/test`).set('x-api-key', s.tenant.apiKey)).status).toBe(202);
      expect((await s.t.http.post(`${base}/recover`).set('x-api-key', s.tenant.apiKey).send({ since })).body).toEqual({ queued: 1, hasMore: false });
      await eventually(async () => s.receiver.received.filter((r) => r.headers['x-webhook-event'] === 'page.version.created' || r.headers['x-webhook-event'] === 'webhook.test'), (found) => found.length === 3);
      const on = (await s.t.http.patch(base).set('x-api-key', s.tenant.apiKey).send({ active: true })).body;
      expect(on.health).toMatchObject({ state: 'healthy', consecutiveFailures: 0, disabledReason: null });
      expect(watcher.active).toBe(true);
    }), 30_000);

  it('turns a subscription off as failing after WEBHOOK_DISABLE_AFTER with no success, failing what it still owed', () =>
    withWorker({ WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_BREAKER_FAILURES: '3', WEBHOOK_DISABLE_AFTER: '8s' }, async (s) => {
      s.receiver.fallback = 500;
      expect(await s.createPages(3)).toEqual([201, 201, 201]);
      const off = await eventually(() => subscriptionOf(s), (sub) => sub.active === false, 30_000);
      expect(off.health).toMatchObject({ state: 'disabled', disabledReason: 'failing' });
      expect(Date.parse(off.health.lastFailureAt) - Date.parse(off.createdAt)).toBeGreaterThanOrEqual(8000);
      expect((await eventsOf(s, 'webhook_subscription.disabled'))[0].data.health.disabledReason).toBe('failing');
      // What was owed failed (recover brings it back), none of it cancelled.
      const statuses = await eventually(
      async () => (await rows<{ status: string }>(s.t, 'SELECT status FROM webhook_deliveries WHERE subscription_id = ?', [s.subscription.id])).map((r) => r.status),
      (found) => found.length === 3 && found.every((status) => status === 'failed'),
      15_000,
      );
      expect(statuses).toEqual(['failed', 'failed', 'failed']);
    }), 60_000);

  it('loses nothing when the worker restarts while the breaker is open', async () => {
    const s = await webhookScenario();
    const env = { WEBHOOK_RETRY_SCHEDULE: '500ms,1s', WEBHOOK_BREAKER_FAILURES: '3' };
    let worker = await startTestWorker(s.db.url, { env });
    try {
      s.receiver.fallback = 500;
      expect(await s.createPages(10)).toEqual(Array(10).fill(201));
      await eventually(async () => (await rows<{ p: string | null }>(s.t, 'SELECT breaker_probe_at AS p FROM webhook_subscriptions WHERE id = ?', [s.subscription.id]))[0].p, (p) => p !== null);
      await worker.stop();
      s.receiver.fallback = 204;
      worker = await startTestWorker(s.db.url, { env });
      const delivered = await eventually(
        async () => (await rows<{ n: number }>(s.t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'delivered'", [s.subscription.id]))[0].n,
        (n) => n === 10,
        30_000,
      );
      expect(delivered).toBe(10);
      expect(new Set(s.receiver.received.filter((r) => r.headers['x-webhook-event'] === 'page.version.created').map((r) => r.headers['webhook-id'])).size).toBe(10);
    } finally {
      await worker.stop();
      await s.close();
    }
  }, 60_000);
});
