import { ReadinessProbe } from '../../src/application/health/readiness-probe.port';
import type { DatabaseReadinessProbe } from '../../src/infrastructure/persistence/connection/database-readiness.probe';
import { brandBody } from '../support/builders/request-bodies';
import { testLogger } from '../support/silent-logger';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger: testLogger(lines) });
});
afterAll(() => t.close());

describe('health', () => {
  it('is live and ready without a key', async () => {
    expect((await t.http.get('/health/live')).body).toEqual({ status: 'ok' });
    expect((await t.http.get('/health/ready')).body).toEqual({ status: 'ok', checks: { database: 'ok' }, historyDaysAhead: expect.any(Number) });
  });
});

describe('request logs', () => {
  it('write one JSON line per request with request id, tenant, route pattern, status and duration, and never the key', async () => {
    const tenant = await createTenant(t);
    const created = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody());
    const requestId = created.headers['x-request-id'];
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === requestId && l.msg === 'request');
    expect(line).toMatchObject({ level: 'info', tenantId: tenant.tenantId, method: 'POST', route: '/v0/brands', status: 201 });
    expect(typeof line.durationMs).toBe('number');
    await t.http.get(`/v0/brands/${created.body.brandId}`).set('x-api-key', tenant.apiKey);
    const get = lines.map((l) => JSON.parse(l)).find((l) => l.route === '/v0/brands/:brand_id');
    expect(get).toMatchObject({ status: 200 });
    expect(lines.join('\n')).not.toContain(tenant.apiKey);
  });
});

describe('health under load', () => {
  it('probes the database at most once a second per process, however many ask; /health/live touches nothing', async () => {
    const probe = t.app.get(ReadinessProbe) as DatabaseReadinessProbe;
    const before = probe.databaseProbes;
    const started = Date.now();
    const statuses: number[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => t.http.get('/health/ready')));
      statuses.push(...answers.map((res) => res.status));
    }
    const seconds = (Date.now() - started) / 1000;
    const probes = probe.databaseProbes - before;
    expect(statuses).toEqual(Array(500).fill(200));
    expect(probes).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    process.stdout.write(`health: 500 /health/ready in ${seconds.toFixed(2)} s made ${probes} database probe(s)\n`);

    const afterReady = probe.databaseProbes;
    await Promise.all(Array.from({ length: 100 }, () => t.http.get('/health/live').expect(200)));
    expect(probe.databaseProbes).toBe(afterReady);
  });
});
