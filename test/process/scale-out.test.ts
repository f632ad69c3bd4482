import { Client } from 'pg';
import { builtCli } from '../support/cli';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workerEnv } from '../support/webhook-worker';
import { subscriptionBody } from '../support/builders/subscriptions';

// Two API processes and two workers on one PostgreSQL and one Redis, as production scales out.
describe('scale-out on one machine', () => {
  it('delivers every event once (at least), with one shared rate-limit budget, under load on both APIs', async () => {
    const db = await isolatedDatabase();
    const receiver = new WebhookReceiver();
    await receiver.start();
    const env = workerEnv(db.url, { LOG_LEVEL: 'info', RATE_LIMIT_MAX: '10000', RATE_LIMIT_WINDOW_SECONDS: '86400', WEBHOOK_CONCURRENCY: '20' });
    const processes = [
      new ServiceProcess({ ...env, SERVICE_ROLE: 'api' }),
      new ServiceProcess({ ...env, SERVICE_ROLE: 'api' }),
      new ServiceProcess({ ...env, SERVICE_ROLE: 'worker' }),
      new ServiceProcess({ ...env, SERVICE_ROLE: 'worker' }),
    ];
    const pg = new Client({ connectionString: db.url });
    try {
      const [apiA, apiB] = await Promise.all([processes[0].baseUrl(), processes[1].baseUrl()]);
      await Promise.all(processes.slice(2).map((p) => p.waitFor((l) => l.msg === 'webhook worker started')));
      const cli = (...argv: string[]) => JSON.parse(builtCli([...argv, '--json'], { DATABASE_URL: db.url }).stdout);
      const tenantId = cli('tenant:create', '--name', 'Scale').tenantId;
      const apiKey = cli('api-key:create', '--tenant', tenantId).apiKey;
      const groupId = cli('page-group:create', '--tenant', tenantId, '--name', 'G').pageGroupId;
      const call = (base: string, path: string, init: RequestInit = {}) =>
        fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...init.headers } });
      expect((await call(apiA, '/v0/webhook_subscriptions', { method: 'POST', body: JSON.stringify(subscriptionBody(receiver.url)) })).status).toBe(201);

      const pages = 120;
      const started = Date.now();
      const statuses: number[] = [];
      for (let wave = 0; wave < pages / 12; wave++) {
        const batch = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 === 0 ? apiA : apiB, `/v0/page_groups/${groupId}/pages`, { method: 'POST' })));
        statuses.push(...batch.map((r) => r.status));
      }
      expect(statuses).toEqual(Array(pages).fill(201));

      await pg.connect();
      await eventually(
        async () => Number((await pg.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'")).rows[0].n),
        (n) => n === pages,
        60_000,
      );
      const seconds = (Date.now() - started) / 1000;
      expect(receiver.eventIds()).toHaveLength(pages);
      const duplicates = receiver.received.length - pages;
      const byWorker = (await pg.query('SELECT count(*) AS n FROM webhook_delivery_attempts')).rows[0].n;

      // One budget: after every request above (1 + pages) and this one, both APIs tell the same.
      const remaining = await Promise.all([apiA, apiB].map(async (base) => Number((await call(base, '/v0/brands')).headers.get('ratelimit-remaining'))));
      expect(Math.abs(remaining[0] - remaining[1])).toBe(1);
      expect(Math.min(...remaining)).toBe(10000 - (pages + 1) - 2);

      process.stdout.write(
        `scale-out: ${pages} pages through 2 APIs, ${pages} events delivered by 2 workers in ${seconds.toFixed(1)} s, ` +
          `${duplicates} duplicate deliveries, ${byWorker} attempts recorded, shared budget remaining ${remaining.join('/')}\n`,
      );
      expect(duplicates).toBe(0);

      // Each process serves Prometheus metrics on its own port, off the API port.
      const metricsOf = async (p: ServiceProcess) => (await fetch((await p.waitFor((l) => typeof l.metrics === 'string')).metrics)).text();
      const apiMetrics = await metricsOf(processes[0]);
      expect(apiMetrics).toMatch(/http_request_duration_seconds_bucket\{[^}]*method="POST",route="\/v0\/page_groups\/:page_group_id\/pages",status="201"/);
      expect(apiMetrics).toMatch(/^outbox_backlog_events 0$/m);
      expect(apiMetrics).toMatch(/^outbox_oldest_event_age_seconds 0$/m);
      expect(apiMetrics).toMatch(/^# TYPE rate_limit_rejections_total counter$/m);
      const workerMetrics = (await metricsOf(processes[2])) + (await metricsOf(processes[3]));
      const delivered = [...workerMetrics.matchAll(/^webhook_delivery_attempts_total\{outcome="delivered",status_class="2xx"\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(delivered).toBe(pages);
      expect(workerMetrics).toMatch(/webhook_attempt_duration_seconds_bucket\{le="0.005",status_class="2xx"\}/);
      expect(workerMetrics).toMatch(/^webhook_queue_jobs\{state="waiting"\} 0$/m);
      expect(await (await fetch(`${apiA}/metrics`)).status).toBe(404);
    } finally {
      await pg.end().catch(() => {});
      for (const p of processes) p.signal('SIGTERM');
      await Promise.all(processes.map((p) => p.exited));
      await receiver.stop();
      await db.drop();
    }
  }, 90_000);
});
