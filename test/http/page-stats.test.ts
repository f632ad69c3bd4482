import { byCodePoint, UTM_TOP_CANDIDATES } from '../../src/application/page/page.view';
import { PageSession, UTM_KINDS, UtmValues } from '../../src/domain/page/page-session';
import { SqlPageRepository } from '../../src/infrastructure/persistence/repositories/sql-page.repository';
import { SqlPageSessionRepository } from '../../src/infrastructure/persistence/repositories/sql-page-session.repository';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { inUnitOfWork } from '../support/database';

// Issue 21, item 6: a page's statistics, held to a direct count over its sessions recorded at
// known times (across day and hour boundaries) through the production session repository.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (tenant: TestTenant, path: string) => t.http.get(path).set('x-api-key', tenant.apiKey);

async function pageOfNewTenant() {
  const tenant = await createTenant(t);
  const group = await platform(t).group(tenant.tenantId);
  const created = (await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201)).body;
  const page = (await new SqlPageRepository(t.orm.em.fork()).findById(tenant.tenantId, created.pageId))!;
  const record = (at: string, utm: UtmValues = {}) => inUnitOfWork(t.orm, () => new SqlPageSessionRepository(t.orm.em).add(PageSession.record(page, utm, new Date(at))));
  return { tenant, page, record, base: `/v0/page_groups/${group.pageGroupId}/pages/${page.id}/stats` };
}

/** What the statistics must say for [from, to), counted straight from the sessions. */
async function directCount(pageId: string, from: string, to: string, interval: 'day' | 'hour') {
  const unit = interval === 'day' ? 'day' : 'hour';
  const buckets = await rows<{ start: Date; n: number }>(
    t,
    `SELECT date_trunc('${unit}', created_at, 'UTC') AS start, count(*)::int AS n FROM page_sessions
     WHERE page_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1`,
    [pageId, from, to],
  );
  const values = await rows<{ kind: string; value: string; n: number }>(
    t,
    `SELECT u.kind, u.value, count(*)::int AS n FROM page_sessions s
     CROSS JOIN LATERAL (VALUES ('campaign', s.utm_campaign), ('content', s.utm_content), ('medium', s.utm_medium), ('source', s.utm_source), ('term', s.utm_term)) AS u(kind, value)
     WHERE s.page_id = ? AND s.created_at >= ? AND s.created_at < ? AND u.value IS NOT NULL GROUP BY 1, 2`,
    [pageId, from, to],
  );
  const utm = Object.fromEntries(
    UTM_KINDS.map((kind) => [
      `utm_${kind}s`,
      values
        .filter((v) => v.kind === kind)
        .sort((a, b) => b.n - a.n || byCodePoint(a.value, b.value))
        .slice(0, 10)
        .map((v) => ({ value: v.value, sessions: v.n })),
    ]),
  );
  const byStart = new Map(buckets.map((b) => [new Date(b.start).toISOString(), b.n]));
  return { byStart, total: buckets.reduce((n, b) => n + b.n, 0), utm };
}

function expectMatches(body: { series: { start: string; sessions: number }[]; total: number; utm: unknown }, direct: Awaited<ReturnType<typeof directCount>>) {
  expect(body.total).toBe(direct.total);
  for (const bucket of body.series) expect(bucket.sessions).toBe(direct.byStart.get(bucket.start) ?? 0);
  expect(body.series.reduce((n, b) => n + b.sessions, 0)).toBe(direct.total);
  expect(body.utm).toEqual(direct.utm);
  // A page of a few values: every list is exact.
  expect((body as { utmApproximate?: unknown }).utmApproximate).toEqual([]);
}

describe('GET …/pages/{page_id}/stats', () => {
  it('counts sessions per UTC day and hour on both sides of the boundaries', async () => {
    const { tenant, page, record, base } = await pageOfNewTenant();
    await record('2026-11-18T23:59:59.999Z', { campaign: 'late' });
    await record('2026-11-19T00:00:00.000Z', { campaign: 'a', source: 'news' });
    await record('2026-11-19T00:30:00.000Z', { campaign: 'a' });
    await record('2026-11-19T13:00:00.000Z', { campaign: 'b', medium: 'email' });
    await record('2026-11-20T05:59:59.999Z', { campaign: 'b' });
    await record('2026-11-20T06:00:00.000Z', { campaign: 'b' });

    const byDay = (await get(tenant, `${base}?from=2026-11-18&to=2026-11-21`).expect(200)).body;
    expect(Object.keys(byDay)).toEqual(['pageId', 'interval', 'from', 'to', 'total', 'series', 'utm', 'utmApproximate']);
    expect(byDay.utmApproximate).toEqual([]);
    expect(byDay).toMatchObject({ pageId: page.id, interval: 'day', from: '2026-11-18T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', total: 6 });
    expect(byDay.series).toEqual([
      { start: '2026-11-18T00:00:00.000Z', sessions: 1 },
      { start: '2026-11-19T00:00:00.000Z', sessions: 3 },
      { start: '2026-11-20T00:00:00.000Z', sessions: 2 },
    ]);
    expect(byDay.utm).toEqual({
      utm_campaigns: [{ value: 'b', sessions: 3 }, { value: 'a', sessions: 2 }, { value: 'late', sessions: 1 }],
      utm_contents: [],
      utm_mediums: [{ value: 'email', sessions: 1 }],
      utm_sources: [{ value: 'news', sessions: 1 }],
      utm_terms: [],
    });

    // Partial days at both ends: their hours come from the hour counters, the day between whole.
    const byHour = (await get(tenant, `${base}?from=2026-11-18T23:10:00Z&to=2026-11-20T05:00:01%2B00:00&interval=hour`).expect(200)).body;
    expect(byHour).toMatchObject({ interval: 'hour', from: '2026-11-18T23:00:00.000Z', to: '2026-11-20T06:00:00.000Z', total: 5 });
    expect(byHour.series).toHaveLength(31);
    expect(byHour.series.filter((b: { sessions: number }) => b.sessions > 0)).toEqual([
      { start: '2026-11-18T23:00:00.000Z', sessions: 1 },
      { start: '2026-11-19T00:00:00.000Z', sessions: 2 },
      { start: '2026-11-19T13:00:00.000Z', sessions: 1 },
      { start: '2026-11-20T05:00:00.000Z', sessions: 1 },
    ]);
    expectMatches(byHour, await directCount(page.id, byHour.from, byHour.to, 'hour'));
  });

  it('matches a direct count of 300 sessions at random times with random UTM values, for several ranges', async () => {
    const { tenant, page, record, base } = await pageOfNewTenant();
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const start = Date.parse('2026-10-01T00:00:00Z');
    for (let i = 0; i < 300; i++) {
      const utm: UtmValues = {};
      for (const kind of UTM_KINDS) if (random() < 0.7) utm[kind] = `${kind}-${Math.floor(random() * 14)}`;
      await record(new Date(start + Math.floor(random() * 12 * 86_400_000)).toISOString(), utm);
    }
    for (const [query, interval] of [
      ['from=2026-10-01&to=2026-10-13', 'day'],
      ['from=2026-10-03T17:20:00Z&to=2026-10-09T02:00:00Z&interval=hour', 'hour'],
      ['from=2026-10-05T00:00:00Z&to=2026-10-05T09:30:00Z&interval=hour', 'hour'],
      ['from=2026-10-02&to=2026-10-03&interval=day', 'day'],
    ] as const) {
      const body = (await get(tenant, `${base}?${query}`).expect(200)).body;
      expectMatches(body, await directCount(page.id, body.from, body.to, interval));
    }
  });

  it('stays exact when sessions of the same values are recorded at once, on both sides of an hour', async () => {
    const { tenant, page, record, base } = await pageOfNewTenant();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        record(i % 2 === 0 ? '2026-11-10T09:59:59.000Z' : '2026-11-10T10:00:00.000Z', { campaign: 'same', source: i % 3 === 0 ? 'x' : 'y' }),
      ),
    );
    for (const query of ['from=2026-11-10&to=2026-11-11', 'from=2026-11-10T10:00:00Z&to=2026-11-10T11:00:00Z&interval=hour', 'from=2026-11-10T09:00:00Z&to=2026-11-10T10:00:00Z&interval=hour']) {
      const body = (await get(tenant, `${base}?${query}`).expect(200)).body;
      expectMatches(body, await directCount(page.id, body.from, body.to, body.interval));
    }
  });

  it('defaults to the last 30 days by day, the current day included', async () => {
    const { tenant, record, base } = await pageOfNewTenant();
    await record(new Date().toISOString(), { source: 'now' });
    const body = (await get(tenant, base).expect(200)).body;
    const end = new Date();
    end.setUTCHours(24, 0, 0, 0);
    expect(body).toMatchObject({ interval: 'day', to: end.toISOString(), from: new Date(end.getTime() - 30 * 86_400_000).toISOString(), total: 1 });
    expect(body.series).toHaveLength(30);
    expect(body.series[29].sessions).toBe(1);
    expect((await get(tenant, `${base}?interval=hour`).expect(200)).body.series).toHaveLength(24);
  });

  it.each([
    ['from=2026-11-10&to=2026-11-01', 'to'],
    ['from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z', 'to'],
    ['from=2026-01-01&to=2026-04-02', 'from'],
    ['from=2026-11-01&to=2026-11-08T00:00:01Z&interval=hour', 'from'],
    ['interval=week', 'interval'],
    ['from=yesterday', 'from'],
    ['from=2026-11-01T00:00:00', 'from'],
    ['to=2026-13-01', 'to'],
    ['from=2026-11-01&from=2026-11-02', 'from'],
  ])('refuses %s as a 400 naming %s', async (query, field) => {
    const { tenant, base } = await pageOfNewTenant();
    const res = await get(tenant, `${base}?${query}`).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
  });

  it(`chooses each kind's top values among its ${UTM_TOP_CANDIDATES.toLocaleString('en-US')} values with the most sessions, and says when a list may lack a value`, async () => {
    const { tenant, page, record, base } = await pageOfNewTenant();
    // Ten values with 2..11 sessions on 2026-11-02; 1,005 values of one session each on
    // 2026-11-03 (visitors' own), of which the last by name are left out of the candidates;
    // and `zz-late`, one session on 2026-11-04, left out too.
    const sessions: [string, string][] = [];
    for (let i = 0; i < 10; i++) for (let n = 0; n < i + 2; n++) sessions.push(['2026-11-02T10:00:00Z', `hot-${i}`]);
    for (let i = 0; i < 1005; i++) sessions.push(['2026-11-03T10:00:00Z', `tail-${String(i).padStart(4, '0')}`]);
    sessions.push(['2026-11-04T10:00:00Z', 'zz-late']);
    for (let i = 0; i < sessions.length; i += 25) await Promise.all(sessions.slice(i, i + 25).map(([at, content]) => record(at, { content, campaign: 'all' })));

    // The whole range: the ten hot values, each with more sessions than any value left out has overall: exact.
    const all = (await get(tenant, `${base}?from=2026-11-01&to=2026-11-05`).expect(200)).body;
    expectMatches(all, await directCount(page.id, all.from, all.to, 'day'));
    expect(all.utm.utm_contents.map((v: { value: string }) => v.value)).toEqual(Array.from({ length: 10 }, (_, i) => `hot-${9 - i}`));

    // The tail's day: ten values of one session each, as a direct count has them, but a value
    // left out (one session overall) could tie with them: the list is named approximate.
    const tail = (await get(tenant, `${base}?from=2026-11-03&to=2026-11-04`).expect(200)).body;
    const tailDirect = await directCount(page.id, tail.from, tail.to, 'day');
    expect(tail.utm).toEqual(tailDirect.utm);
    expect(tail.utmApproximate).toEqual(['utm_contents']);

    // The last day: its one value was left out, so the list misses it, and says so.
    const late = (await get(tenant, `${base}?from=2026-11-04&to=2026-11-05`).expect(200)).body;
    expect(late.total).toBe(1);
    expect((await directCount(page.id, late.from, late.to, 'day')).utm.utm_contents).toEqual([{ value: 'zz-late', sessions: 1 }]);
    expect(late.utm.utm_contents).toEqual([]);
    expect(late.utmApproximate).toEqual(['utm_contents']);
    // The other kind has one value: exact everywhere.
    expect(late.utm.utm_campaigns).toEqual([{ value: 'all', sessions: 1 }]);
  });

  it('is a 404 for another tenant’s page', async () => {
    const { base } = await pageOfNewTenant();
    await get(await createTenant(t), base).expect(404);
  });
});
