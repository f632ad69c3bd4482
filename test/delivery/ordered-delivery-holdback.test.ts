import { eventually } from '../support/eventually';
import { rows } from '../support/platform';
import { startTestWorker } from '../support/webhook-worker';
import { webhookScenario } from '../support/webhook-scenario';
import { firstSuccessesByPage, type ReceivedDelivery } from '../support/webhook-receiver';

// Issue 45: what an ordered subscription's failing page holds back (only itself), through the
// real worker and a receiver on 127.0.0.1.
type Scenario = Awaited<ReturnType<typeof webhookScenario>>;

/** A scenario whose subscription orders by page, and a worker with `env`, taken down after `test`. */
async function orderedWorld(env: Record<string, string>, test: (s: Scenario) => Promise<void>): Promise<void> {
  const s = await webhookScenario();
  let worker: Awaited<ReturnType<typeof startTestWorker>> | undefined;
  try {
    worker = await startTestWorker(s.db.url, { env });
    const patched = await s.t.http.patch(`/v0/webhook_subscriptions/${s.subscription.id}`).set('x-api-key', s.tenant.apiKey).send({ ordering: 'page' });
    expect(patched.status).toBe(200);
    expect(patched.body.ordering).toBe('page');
    await test(s);
  } finally {
    await worker?.stop();
    await s.close();
  }
}

const newPage = async (s: Scenario): Promise<string> => (await s.t.http.post(`/v0/page_groups/${s.group.pageGroupId}/pages`).set('x-api-key', s.tenant.apiKey).expect(201)).body.pageId;
const newVersion = async (s: Scenario, pageId: string) =>
  (await s.t.http.post(`/v0/page_groups/${s.group.pageGroupId}/pages/${pageId}/versions`).set('x-api-key', s.tenant.apiKey).send({}).expect(201)).body as { pageVersionId: string; number: number };

const firstSuccesses = firstSuccessesByPage;
const versionsOf = (list: ReceivedDelivery[] | undefined) => (list ?? []).map((r) => r.body.data.version);

describe('ordered delivery: what a failing page holds back', () => {
  it('keeps delivering the other pages, each within 1 s of its 201, while one page answers 500 for 30 s; that page then gets its versions in order', () =>
    // Retries a second apart: the failing page's attempts never come ten in a row, so the breaker stays closed.
    orderedWorld({ WEBHOOK_RETRY_SCHEDULE: Array(50).fill('1s').join(',') }, async (s) => {
      const failing = await newPage(s);
      const failUntil = Date.now() + 30_000;
      s.receiver.respond = ({ body }) => ({ status: body.data.pageId === failing && Date.now() < failUntil ? 500 : 204 });
      await newVersion(s, failing);
      await newVersion(s, failing);
      const others = [await newPage(s), await newPage(s), await newPage(s)];
      await s.receiver.waitUntil(() => firstSuccesses(s.receiver.received).size === 3);

      // One version of another page at a time, the next once the last arrived, until the 30 s are over.
      const lateness: number[] = [];
      for (let i = 0; Date.now() < failUntil; i++) {
        const version = await newVersion(s, others[i % 3]);
        const createdAt = Date.now();
        const arrived = () => s.receiver.received.find((r) => r.status < 300 && r.body.data.pageVersionId === version.pageVersionId);
        await s.receiver.waitUntil(() => arrived() !== undefined);
        lateness.push(arrived()!.receivedAt - createdAt);
      }
      // The failing page had only its first version sent meanwhile, again and again. Meanwhile is
      // until failUntil: the loop's last version can arrive after it, by when the first version's
      // retry may have been answered 204 and the second sent (a busy machine showed both).
      const duringFailure = s.receiver.received.filter((r) => r.body.data.pageId === failing && r.receivedAt < failUntil);
      expect(new Set(duringFailure.map((r) => r.body.data.version))).toEqual(new Set([1]));
      expect(duringFailure.every((r) => r.status === 500)).toBe(true);
      expect(duringFailure.length).toBeGreaterThanOrEqual(20);

      await s.receiver.waitUntil(() => versionsOf(firstSuccesses(s.receiver.received).get(failing)).length === 3);
      const worst = Math.max(...lateness);
      process.stdout.write(`ordered hold-back: ${lateness.length} versions of 3 other pages delivered while one page failed for 30 s; slowest ${worst} ms after its 201\n`);
      expect(lateness.length).toBeGreaterThanOrEqual(30);
      expect(worst).toBeLessThan(1000);
      const recovered = firstSuccesses(s.receiver.received).get(failing)!;
      expect(versionsOf(recovered)).toEqual([1, 2, 3]);
      expect(recovered[0].receivedAt).toBeGreaterThanOrEqual(failUntil);
      for (const page of others) expect(versionsOf(firstSuccesses(s.receiver.received).get(page))).toEqual([...versionsOf(firstSuccesses(s.receiver.received).get(page))].sort((a, b) => a - b));
    }), 90_000);

  it('keeps each page\'s order when an open breaker releases what it held', () =>
    orderedWorld({ WEBHOOK_BREAKER_FAILURES: '3', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms' }, async (s) => {
      s.receiver.fallback = 500;
      const pages = [await newPage(s), await newPage(s), await newPage(s)];
      for (const page of pages) for (let v = 2; v <= 5; v++) await newVersion(s, page);
      await eventually(async () => (await rows<{ p: string | null }>(s.t, 'SELECT breaker_probe_at AS p FROM webhook_subscriptions WHERE id = ?', [s.subscription.id]))[0].p, (p) => p !== null);
      // Behind the open breaker: each page's first version held, the rest waiting their turn.
      const waiting = () => rows<{ n: number }>(s.t, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'waiting'", [s.subscription.id]);
      expect(await eventually(waiting, (r) => r[0].n === 12)).toEqual([{ n: 12 }]);
      expect(s.receiver.received.every((r) => r.body.data.version === 1)).toBe(true);
      s.receiver.fallback = 204;
      await s.receiver.waitUntil(() => [...firstSuccesses(s.receiver.received).values()].reduce((n, list) => n + list.length, 0) === 15);
      for (const page of pages) expect(versionsOf(firstSuccesses(s.receiver.received).get(page))).toEqual([1, 2, 3, 4, 5]);
    }), 60_000);
});
