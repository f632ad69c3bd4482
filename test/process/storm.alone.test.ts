import { newTypeId } from '../../src/domain/shared/type-id';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { subscriptionBody } from '../support/builders/subscriptions';
import { openTestOrm, sqlIn } from '../support/database';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { rssMb } from '../support/process-memory';
import { platform } from '../support/platform';
import { ServiceProcess } from '../support/service-process';
import { createTenant, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workerEnv } from '../support/webhook-worker';

// Issue 42, item 5: no storms. Tenant A's 5,000 deliveries are held behind its subscription's open
// breaker while its receiver fails; it heals; all arrive, each claimed at most twice (held
// deliveries are parked with no job and woken per subscription, never claimed again one by
// one). Throughout, tenant B's deliveries are sent soon after their 201 (the worker's send time:
// the receivers share this test's busy process), and the built worker, a process of its own,
// stays under 300 MB resident.
const HELD = 5000;

describe('5,000 deliveries held behind an open breaker', () => {
  it('all arrive once the receiver heals, none claimed more than twice, another tenant served within a second throughout, the worker under 300 MB', async () => {
    const db = await isolatedDatabase();
    const t = await startTestApp({ orm: await openTestOrm(db.url) });
    const failing = new WebhookReceiver();
    failing.fallback = 500;
    const healthy = new WebhookReceiver();
    await Promise.all([failing.start(), healthy.start()]);
    // The lease is production's (30 s), not the 2 s the fault tests shorten it to: a 2 s lease made
    // the sweeper take the released backlog's tail (due, unclaimed, in line behind the rest) for
    // lost jobs and enqueue it again every 2 s, a load that production's lease meets only behind a
    // backlog of minutes (measured 2026-11-30). The sweeper has tests of its own.
    const worker = new ServiceProcess(
      workerEnv(db.url, { SERVICE_ROLE: 'worker', LOG_LEVEL: 'debug', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', WEBHOOK_BREAKER_FAILURES: '10', WEBHOOK_ATTEMPT_LOCK_MS: '30000' }),
      ['--max-old-space-size=256', '--max-semi-space-size=16'],
    );
    const rss: number[] = [];
    // Sampled while it runs (a process that has exited has nothing left to read).
    const memory = setInterval(() => {
      try {
        rss.push(rssMb(worker.pid));
      } catch {
        // exited
      }
    }, 250);
    let sampling = true;
    const latencies: number[] = [];
    let tenantB: Promise<void> = Promise.resolve();
    try {
      await worker.waitFor((l) => l.msg === 'webhook worker started');
      const a = await createTenant(t, 'A');
      const b = await createTenant(t, 'B');
      const subscription = (await t.http.post('/v0/webhook_subscriptions').set('x-api-key', a.apiKey).send(subscriptionBody(failing.url)).expect(201)).body;
      await t.http.post('/v0/webhook_subscriptions').set('x-api-key', b.apiKey).send(subscriptionBody(healthy.url)).expect(201);
      const groupOfB = await platform(t).group(b.tenantId);
      // Tenant A's 5,000 events, written as the API writes them (the relay fans them out).
      const events = Array.from({ length: HELD }, () => newTypeId('evt'));
      await sqlRows(
        t.orm.em.fork(),
        `INSERT INTO outbox_events (id, tenant_id, type, body, created_at)
         SELECT e, $2, 'page.version.created', json_build_object('id', e, 'type', 'page.version.created', 'createdAt', now(), 'tenantId', $2::text, 'data', '{}'::json)::text, now()
         FROM unnest($1::text[]) AS e`,
        [events, a.tenantId],
      );
      // The breaker opens and everything is held (but a probe in flight, perhaps).
      const held = async () => (await sqlIn<{ n: number }>(t.orm, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'pending' AND next_attempt_at IS NULL`, [subscription.id]))[0].n;
      await eventually(held, (n) => n >= HELD - 1, 60_000);
      // From now on, while they are held and then released, tenant B makes a page every 200 ms;
      // each delivery's 201 → arrival is kept.
      tenantB = (async () => {
        while (sampling) {
          const created = await t.http.post(`/v0/page_groups/${groupOfB.pageGroupId}/pages`).set('x-api-key', b.apiKey).expect(201);
          const sentAt = Date.now();
          const arrival = await eventually(async () => healthy.received.find((r) => r.rawBody.includes(created.body.pageId)), (r) => r !== undefined);
          // When the worker sent it (its attempt's line names when the request left): what the
          // worker did, not when this busy test process got round to reading the socket, nor when
          // the line was written (after the attempt's record, which waits its turn in the worker's
          // grouped records: up to 392 ms later with both cores busy, decisions.md 162).
          const eventId = String(arrival!.headers['x-webhook-id']);
          const attempt = await worker.waitFor((l) => l.msg === 'webhook attempt' && l.eventId === eventId);
          latencies.push(Date.parse(attempt.sentAt) - sentAt);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      // Held through three failed probes (a second apart), then the receiver heals.
      const probes = async () => (await sqlIn<{ n: number }>(t.orm, 'SELECT breaker_probes AS n FROM webhook_subscriptions WHERE id = ?', [subscription.id]))[0].n;
      await eventually(probes, (n) => n >= 3, 30_000);
      const failedBeforeHealing = failing.received.length;
      failing.fallback = 204;
      const healedAt = Date.now();
      const delivered = async () => (await sqlIn<{ n: number }>(t.orm, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'delivered'`, [subscription.id]))[0].n;
      await eventually(delivered, (n) => n === HELD, 90_000);
      const drainedIn = Date.now() - healedAt;
      sampling = false;
      await tenantB;
      expect(new Set(failing.received.map((r) => r.headers['x-webhook-id'])).size).toBe(HELD);

      // Claims per delivery, from the worker's own lines: each held, and each attempt made.
      const claims = new Map<string, number>();
      for (const line of worker.lines.filter((l) => l.msg === 'webhook attempt held with its subscription' || l.msg === 'webhook attempt')) {
        if (line.subscriptionId === subscription.id) claims.set(line.deliveryId, (claims.get(line.deliveryId) ?? 0) + 1);
      }
      expect(claims.size).toBe(HELD);
      const most = Math.max(...claims.values());
      expect(most).toBeLessThanOrEqual(2);
      expect(latencies.length).toBeGreaterThan(5);
      // The released backlog is handed out after fresh jobs (BullMQ priority), so tenant B's sends
      // do not queue behind it. Issue 42's bound. This file runs alone (scripts/test.sh): beside
      // the 50,000-delivery fan-out suite it once measured 2.07 s, which was that suite's share
      // of the two cores, not fairness; alone with both cores kept busy by `yes`, 597–826 ms.
      expect(Math.max(...latencies)).toBeLessThan(1000);
      expect(Math.max(...rss)).toBeLessThan(300);
      process.stdout.write(
        `storm: ${HELD} held behind the breaker (${failedBeforeHealing} attempts failed first, 3 probes); healed, all delivered ${(drainedIn / 1000).toFixed(1)} s later; ` +
          `claims a delivery at most ${most}; tenant B's ${latencies.length} deliveries meanwhile 201 → sent median ${[...latencies].sort((a, b) => a - b)[latencies.length >> 1]} ms, max ${Math.max(...latencies)} ms; worker RSS max ${Math.max(...rss).toFixed(0)} MB\n`,
      );
    } finally {
      clearInterval(memory);
      sampling = false;
      await tenantB.catch(() => undefined);
      await worker.stop();
      await Promise.all([failing.stop(), healthy.stop()]);
      await t.close();
      await t.orm.close(true);
      await db.drop();
    }
  }, 240_000);
});
