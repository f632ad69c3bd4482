import { Client } from 'pg';
import { byCodePoint, UTM_VALUES_PER_KIND } from '../../src/application/page/page.view';
import { eventually } from '../support/eventually';
import { platform, rows } from '../support/platform';
import { testDatabaseUrl } from '../support/test-database-url';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

// A group's UTM values: recorded with each session (one index upsert), kept as JSON that the next
// read renders again when a value arrived (Migration20261125010000_utm_values_bounded).
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function groupWithPage() {
  const tenant = await createTenant(t);
  const group = await platform(t).group(tenant.tenantId);
  const page = await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).send({});
  const read = async () => (await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', tenant.apiKey).expect(200)).body.parameters;
  return { tenant, group, pageId: page.body.pageId as string, read };
}

const empty = { utm_campaigns: [], utm_contents: [], utm_mediums: [], utm_sources: [], utm_terms: [] };

describe('UTM parameters kept per group', () => {
  it('shows a value recorded after the summary was last rendered, and the same answer again without rendering', async () => {
    const { tenant, group, pageId, read } = await groupWithPage();
    expect(await read()).toEqual(empty);
    await platform(t).session(tenant.tenantId, pageId, { source: 'beta' });
    expect(await read()).toEqual({ ...empty, utm_sources: ['beta'] });
    await platform(t).session(tenant.tenantId, pageId, { source: 'alpha', medium: 'email' });
    await platform(t).session(tenant.tenantId, pageId, { source: 'alpha' });
    expect(await read()).toEqual({ ...empty, utm_sources: ['alpha', 'beta'], utm_mediums: ['email'] });
    const [kept] = await rows<{ generation: string; body_generation: string }>(t, 'SELECT generation, body_generation FROM page_group_utm_summaries WHERE page_group_id = ?', [group.pageGroupId]);
    expect(kept.body_generation).toBe(kept.generation);
    // A value seen again within the hour moves nothing: the kept JSON stays current.
    await platform(t).session(tenant.tenantId, pageId, { source: 'alpha' });
    const [after] = await rows<{ generation: string }>(t, 'SELECT generation FROM page_group_utm_summaries WHERE page_group_id = ?', [group.pageGroupId]);
    expect(after.generation).toBe(kept.generation);
  });

  it('holds both values when two transactions record new values of a group at once', async () => {
    const { group, read } = await groupWithPage();
    const [one, two, admin] = [0, 1, 2].map(() => new Client({ connectionString: testDatabaseUrl() }));
    await Promise.all([one.connect(), two.connect(), admin.connect()]);
    const record = (client: Client, value: string) =>
      client.query(
        `WITH moved AS (INSERT INTO page_group_utm_values (page_group_id, kind, value) VALUES ($1, 'source', $2) ON CONFLICT DO NOTHING RETURNING 1)
         INSERT INTO page_group_utm_summaries (page_group_id, generation) SELECT $1, 1 WHERE EXISTS (SELECT 1 FROM moved)
         ON CONFLICT (page_group_id) DO UPDATE SET generation = page_group_utm_summaries.generation + 1`,
        [group.pageGroupId, value],
      );
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      await record(one, 'first');
      const twoPid = (await two.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const second = record(two, 'second');
      await eventually(async () => (await admin.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [twoPid])).rows[0].wait_event_type, (w) => w === 'Lock');
      // A read between the commits renders what is committed, and must not hide the later value.
      await one.query('COMMIT');
      expect((await read()).utm_sources).toEqual(['first']);
      await second;
      await two.query('COMMIT');
      expect((await read()).utm_sources).toEqual(['first', 'second']);
    } finally {
      await Promise.all([one.end(), two.end(), admin.end()]);
    }
  });

  it(`answers at most ${UTM_VALUES_PER_KIND} values per kind: the most recently seen, in byte order`, async () => {
    const { group, read } = await groupWithPage();
    const total = UTM_VALUES_PER_KIND + 200;
    // Value i was last seen i minutes after the first: the 200 oldest fall out.
    await rows(
      t,
      `WITH added AS (
         INSERT INTO page_group_utm_values (page_group_id, kind, value, last_seen_at)
         SELECT ?, 'campaign', 'c-' || lpad(i::text, 5, '0'), timestamptz '2026-01-01' + i * interval '1 minute' FROM generate_series(1, ?) i
         RETURNING page_group_id)
       INSERT INTO page_group_utm_summaries (page_group_id, generation) SELECT DISTINCT page_group_id, 1 FROM added
       ON CONFLICT (page_group_id) DO UPDATE SET generation = page_group_utm_summaries.generation + 1`,
      [group.pageGroupId, total],
    );
    const campaigns: string[] = (await read()).utm_campaigns;
    expect(campaigns).toHaveLength(UTM_VALUES_PER_KIND);
    expect(campaigns[0]).toBe('c-00201');
    expect(campaigns[campaigns.length - 1]).toBe(`c-0${total}`);
    expect([...campaigns].sort(byCodePoint)).toEqual(campaigns);
  });
});

describe('code point order', () => {
  it('is UTF-8 byte order, unlike JavaScript’s default sort', () => {
    const values = ['\uffff', '😀', 'b', 'a', 'ab', ''];
    expect([...values].sort(byCodePoint)).toEqual(['', 'a', 'ab', 'b', '\uffff', '😀']);
    expect([...values].sort()).not.toEqual([...values].sort(byCodePoint));
  });
});
