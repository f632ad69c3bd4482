import { cli } from '../support/cli';
import { rows } from '../support/platform';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function tenant(): Promise<string> {
  return (await cli('tenant:create', '--name', 'CLI pages', '--json')).json.tenantId;
}

describe('platform CLI: templates, page groups, versions, sessions', () => {
  it('template:create-system prints the Template response object', async () => {
    const res = await cli('template:create-system', '--name', 'Hero', '--content', '<h1/>', '--description', 'Big', '--json');
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      pageTemplateId: expect.stringMatching(/^pagetemplate_/), sourcePageTemplateId: null, name: 'Hero', description: 'Big',
      templateContent: '<h1/>', isEditable: false, isSystem: true, version: 1, createdAt: expect.any(String), updatedAt: null,
    });
  });

  it('page-group:create, set-status and delete print what platform-cli.md says, and the API follows', async () => {
    const tenantId = await tenant();
    const template = (await cli('template:create-system', '--name', 'T', '--content', 'c', '--json')).json;
    const created = await cli('page-group:create', '--tenant', tenantId, '--name', 'Spring', '--title', 'Spring sale', '--template', template.pageTemplateId, '--status', 'published', '--page-context', 'ctx', '--json');
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ tenantId, name: 'Spring', title: 'Spring sale', pageTemplateId: template.pageTemplateId, status: 'published', pageContext: 'ctx', pagesCount: 0, deletedAt: null });
    const id = created.json.pageGroupId;

    const archived = await cli('page-group:set-status', '--tenant', tenantId, '--id', id, '--status', 'archived', '--json');
    expect(archived.json).toMatchObject({ pageGroupId: id, status: 'archived' });

    const deleted = await cli('page-group:delete', '--tenant', tenantId, '--id', id, '--json');
    expect(deleted.json).toEqual({ pageGroupId: id, deletedAt: expect.any(String) });
    const again = await cli('page-group:delete', '--tenant', tenantId, '--id', id);
    expect(again).toMatchObject({ code: 2, stderr: [`not found: ${id}`] });
  });

  it('page-version:create numbers versions and writes an event for each; session:record feeds the UTM values', async () => {
    const tenantId = await tenant();
    const group = (await cli('page-group:create', '--tenant', tenantId, '--name', 'G', '--json')).json;
    const key = (await cli('api-key:create', '--tenant', tenantId, '--json')).json.apiKey;
    const page = (await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', key)).body;

    const v2 = await cli('page-version:create', '--tenant', tenantId, '--page', page.pageId, '--json');
    expect(v2.json).toEqual({ pageVersionId: expect.stringMatching(/^pagever_/), pageId: page.pageId, version: 2 });
    const parallel = await Promise.all(Array.from({ length: 4 }, () => cli('page-version:create', '--tenant', tenantId, '--page', page.pageId, '--json')));
    expect(parallel.map((r) => r.json.version).sort()).toEqual([3, 4, 5, 6]);
    const events = await rows<{ body: string }>(t, 'SELECT body FROM outbox_events WHERE tenant_id = ? ORDER BY id', [tenantId]);
    expect(events.map((e) => JSON.parse(e.body).data.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);

    const session = await cli('session:record', '--tenant', tenantId, '--page', page.pageId, '--utm-source', 'google', '--utm-medium', 'cpc', '--utm-campaign', 'x', '--utm-term', 'y', '--utm-content', 'z', '--json');
    expect(session.json).toEqual({ sessionId: expect.stringMatching(/^pagesession_/), pageId: page.pageId });
    const utm = await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', key);
    expect(utm.body.parameters).toEqual({ utm_campaigns: ['x'], utm_contents: ['z'], utm_mediums: ['cpc'], utm_sources: ['google'], utm_terms: ['y'] });
  });

  it.each([
    [['page-group:create', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', '--name', 'G'], 'not found: tenant_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    [['page-version:create', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', '--page', 'pagevar_01jdq8w9k1a2b3c4d5e6f7g8h9'], 'not found: pagevar_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    [['session:record', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', '--page', 'pagevar_01jdq8w9k1a2b3c4d5e6f7g8h9'], 'not found: pagevar_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    [['page-group:set-status', '--tenant', 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', '--id', 'page_01jdq8w9k1a2b3c4d5e6f7g8h9', '--status', 'live'], 'option --status must be one of'],
    [['template:create-system', '--name', 'x'], 'option --content is required'],
  ])('exits 2 for %j', async (argv, message) => {
    const res = await cli(...argv);
    expect(res.code).toBe(2);
    expect(res.stderr[0]).toContain(message);
  });

  it('refuses a brand or template of another tenant for a new group, writing nothing', async () => {
    const owner = await tenant();
    const other = await tenant();
    const key = (await cli('api-key:create', '--tenant', owner, '--json')).json.apiKey;
    const brand = await t.http.post('/v0/brands').set('x-api-key', key).send({ name: 'B', preferredAppearance: 'light', themeLight: {}, themeDark: {} });
    const res = await cli('page-group:create', '--tenant', other, '--name', 'G', '--brand', brand.body.brandId);
    expect(res).toMatchObject({ code: 2, stderr: [`not found: ${brand.body.brandId}`] });
    expect(await rows(t, 'SELECT id FROM page_groups WHERE tenant_id = ?', [other])).toEqual([]);
  });

  it('demo:seed makes a ready tenant whose key, groups and templates work through the API', async () => {
    const res = await cli('demo:seed', '--json');
    expect(res.code).toBe(0);
    expect(Object.keys(res.json)).toEqual(['tenantId', 'apiKey', 'brandId', 'pageGroupIds', 'systemTemplateIds']);
    const key = res.json.apiKey;
    const groups = await t.http.get('/v0/page_groups').set('x-api-key', key);
    expect(groups.body.items.map((g: any) => g.status).sort()).toEqual(['archived', 'draft', 'published']);
    expect(groups.body.items.every((g: any) => g.pagesCount === 2)).toBe(true);
    const utm = await t.http.get(`/v0/page_groups/${res.json.pageGroupIds[0]}/utm_parameters`).set('x-api-key', key);
    expect(utm.body.parameters.utm_sources).toEqual(['google', 'linkedin', 'newsletter']);
    expect((await t.http.get(`/v0/brands/${res.json.brandId}`).set('x-api-key', key)).status).toBe(200);
    const copy = await t.http.post(`/v0/templates/${res.json.systemTemplateIds[0]}/duplicate`).set('x-api-key', key);
    expect(copy.status).toBe(201);
    // Every read endpoint of issue 21 shows something.
    expect((await t.http.get('/v0/templates?type=system').set('x-api-key', key)).body.items.length).toBeGreaterThanOrEqual(2);
    const groupPath = `/v0/page_groups/${res.json.pageGroupIds[0]}`;
    expect((await t.http.get(groupPath).set('x-api-key', key)).body.pagesCount).toBe(2);
    const [first] = (await t.http.get(`${groupPath}/pages`).set('x-api-key', key)).body.items;
    const page = (await t.http.get(`${groupPath}/pages/${first.pageId}`).set('x-api-key', key)).body;
    expect(page).toMatchObject({ currentVersion: 2, versionsCount: 2, sessionsCount: 4, pageTemplateId: res.json.systemTemplateIds[1] });
    const versions = (await t.http.get(`${groupPath}/pages/${first.pageId}/versions`).set('x-api-key', key)).body.items;
    expect(versions.map((v: any) => v.number)).toEqual([2, 1]);
    const stats = (await t.http.get(`${groupPath}/pages/${first.pageId}/stats`).set('x-api-key', key)).body;
    expect(stats.total).toBe(4);
    expect(stats.utm.utm_sources[0]).toEqual({ value: 'google', sessions: 2 });
  });
});
