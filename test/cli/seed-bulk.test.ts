import { cli } from '../support/cli';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('seed:bulk', () => {
  it('writes the asked sizes with progress, and its sample key sees the data through the API', async () => {
    const res = await cli('seed:bulk', '--tenants', '2', '--brands', '30', '--page-groups', '4', '--pages-per-group', '2', '--sessions', '6000', '--hot-group-share', '1', '--wide-utm-sessions', '1200', '--json');
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ tenants: 2, brands: 30, pageGroups: 4, pages: 8, sessions: 7200 });
    expect(res.progress).toEqual(expect.arrayContaining(['tenants 0/2', 'tenants 2/2', 'sessions 5000/6000', 'sessions 6000/6000']));
    const key = res.json.sample.apiKey;
    const brands = await t.http.get('/v0/brands?limit=100').set('x-api-key', key);
    expect(brands.body.items).toHaveLength(15);
    const groups = await t.http.get('/v0/page_groups').set('x-api-key', key);
    expect(groups.body.items.map((g: any) => g.pagesCount)).toEqual([2, 2]);
    const utm = await t.http.get(`/v0/page_groups/${res.json.sample.pageGroupId}/utm_parameters`).set('x-api-key', key);
    expect(utm.body.parameters.utm_mediums.length).toBeGreaterThan(1);
    expect(utm.body.parameters.utm_sources).toEqual([...utm.body.parameters.utm_sources].sort());
    expect(res.json.utmValues).toBeGreaterThan(1200);
    // The wide page: 1,200 distinct utm_content values, more than its statistics choose among.
    const { widePageGroupId, widePageId } = res.json.sample;
    const stats = await t.http.get(`/v0/page_groups/${widePageGroupId}/pages/${widePageId}/stats?interval=day&from=${new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10)}`).set('x-api-key', key);
    expect(stats.status).toBe(200);
    expect(stats.body.total).toBeGreaterThan(1000);
    expect(stats.body.utm.utm_contents).toHaveLength(10);
    expect(stats.body.utmApproximate).toEqual(['utm_contents']);
  });

  it.each([[['--sessions', '0']], [['--wide-utm-sessions', '-1']], [['--brands', 'many']], [['--hot-group-share', '2']], [['--colour', 'red']]])('refuses %j', async (argv) => {
    const res = await cli('seed:bulk', ...argv);
    expect(res.code).toBe(2);
  });
});
