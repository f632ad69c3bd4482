import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const createPage = (tenant: TestTenant, groupId: string, body?: unknown) => {
  const req = t.http.post(`/v0/page_groups/${groupId}/pages`).set('x-api-key', tenant.apiKey);
  return body === undefined ? req : req.send(body as object);
};

describe('POST /v0/page_groups/{page_group_id}/pages', () => {
  it('creates the page with version 1 and a page.version.created outbox event, in the spec shape', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const template = await p.systemTemplate();
    const group = await p.group(tenant.tenantId, { pageTemplateId: template.pageTemplateId });
    const res = await createPage(tenant, group.pageGroupId, { supplementaryContext: 'Mention the free trial.' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['pageId', 'pageGroupId', 'pageTemplateId', 'tenantId', 'supplementaryContext', 'createdAt']);
    expect(res.body).toMatchObject({
      pageId: expect.stringMatching(/^pagevar_[0-9a-z]{26}$/),
      pageGroupId: group.pageGroupId,
      pageTemplateId: template.pageTemplateId,
      tenantId: tenant.tenantId,
      supplementaryContext: 'Mention the free trial.',
    });
    const versions = await rows<{ id: string; number: number }>(t, 'SELECT id, number FROM page_versions WHERE page_id = ?', [res.body.pageId]);
    expect(versions).toEqual([{ id: expect.stringMatching(/^pagever_/), number: 1 }]);
    const events = await rows<{ id: string; type: string; tenant_id: string; body: string }>(t, `SELECT id, type, tenant_id, body FROM outbox_events WHERE body LIKE ?`, [`%${res.body.pageId}%`]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'page.version.created', tenant_id: tenant.tenantId });
    expect(JSON.parse(events[0].body)).toEqual({
      id: events[0].id,
      type: 'page.version.created',
      createdAt: res.body.createdAt,
      tenantId: tenant.tenantId,
      data: { pageVersionId: versions[0].id, pageId: res.body.pageId, pageGroupId: group.pageGroupId, version: 1, createdAt: res.body.createdAt },
    });
  });

  it('takes no body at all, defaulting the template to the group’s and the context to null', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const template = await p.systemTemplate();
    const group = await p.group(tenant.tenantId, { pageTemplateId: template.pageTemplateId });
    const res = await createPage(tenant, group.pageGroupId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ pageTemplateId: template.pageTemplateId, supplementaryContext: null });
    const groupWithout = await p.group(tenant.tenantId);
    expect((await createPage(tenant, groupWithout.pageGroupId, {})).body.pageTemplateId).toBeNull();
  });

  it('uses a given system template or one of the tenant’s own', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const system = await p.systemTemplate();
    const own = await t.http.post(`/v0/templates/${system.pageTemplateId}/duplicate`).set('x-api-key', tenant.apiKey);
    const group = await p.group(tenant.tenantId);
    for (const id of [system.pageTemplateId, own.body.pageTemplateId]) {
      const res = await createPage(tenant, group.pageGroupId, { pageTemplateId: id });
      expect(res.status).toBe(201);
      expect(res.body.pageTemplateId).toBe(id);
    }
  });

  it.each([
    ['another tenant’s template', 'foreign'],
    ['an unknown template', 'pagetemplate_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['an id of another kind', 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['a malformed id', 'not-an-id'],
    ['an empty string', ''],
    ['a number', 42],
  ])('refuses %s as pageTemplateId with a 400 naming it, writing nothing', async (_, value) => {
    const tenant = await createTenant(t);
    const stranger = await createTenant(t);
    const p = platform(t);
    const system = await p.systemTemplate();
    const foreign = await t.http.post(`/v0/templates/${system.pageTemplateId}/duplicate`).set('x-api-key', stranger.apiKey);
    const group = await p.group(tenant.tenantId);
    const res = await createPage(tenant, group.pageGroupId, { pageTemplateId: value === 'foreign' ? foreign.body.pageTemplateId : value });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('pageTemplateId');
    expect(await rows(t, 'SELECT id FROM pages WHERE page_group_id = ?', [group.pageGroupId])).toEqual([]);
    expect((await rows<{ pages_count: number }>(t, 'SELECT sum(pages_count)::int AS pages_count FROM page_group_counters WHERE page_group_id = ?', [group.pageGroupId]))[0].pages_count).toBe(0);
  });

  it.each([
    ['an empty supplementaryContext', { supplementaryContext: '' }, 'supplementaryContext'],
    ['a supplementaryContext of 10001 characters', { supplementaryContext: 'x'.repeat(10001) }, 'supplementaryContext'],
    ['a numeric supplementaryContext', { supplementaryContext: 5 }, 'supplementaryContext'],
    ['an unknown property', { title: 'x' }, 'title'],
  ])('refuses %s', async (_, body, field) => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const res = await createPage(tenant, group.pageGroupId, body);
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
  });

  it('accepts a supplementaryContext of exactly 10000 characters', async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    expect((await createPage(tenant, group.pageGroupId, { supplementaryContext: 'x'.repeat(10000) })).status).toBe(201);
  });

  it('is a 404 for a deleted group, another tenant’s group and malformed ids', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const p = platform(t);
    const deleted = await p.group(tenant.tenantId);
    await p.deleteGroup(tenant.tenantId, deleted.pageGroupId);
    const foreign = await p.group(other.tenantId);
    for (const id of [deleted.pageGroupId, foreign.pageGroupId, 'page_123', 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9']) {
      expect((await createPage(tenant, id, {})).status).toBe(404);
      expect((await t.http.get(`/v0/page_groups/${id}/pages`).set('x-api-key', tenant.apiKey)).status).toBe(404);
      expect((await t.http.get(`/v0/page_groups/${id}/utm_parameters`).set('x-api-key', tenant.apiKey)).status).toBe(404);
    }
  });

  it('is a 404 that writes nothing for a group deleted after a page was added to it (its defaults were kept)', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId);
    expect((await createPage(tenant, group.pageGroupId, {})).status).toBe(201);
    await p.deleteGroup(tenant.tenantId, group.pageGroupId);
    const res = await createPage(tenant, group.pageGroupId, {});
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await rows(t, 'SELECT id FROM pages WHERE page_group_id = ?', [group.pageGroupId])).length).toBe(1);
    expect((await rows(t, "SELECT id FROM outbox_events WHERE tenant_id = ? AND type = 'page.version.created'", [tenant.tenantId])).length).toBe(1);
  });

  it('keeps pagesCount exact under 50 parallel creations', async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const results = await Promise.all(Array.from({ length: 50 }, () => createPage(tenant, group.pageGroupId)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const listed = await t.http.get('/v0/page_groups').set('x-api-key', tenant.apiKey);
    expect(listed.body.items[0].pagesCount).toBe(50);
    expect((await rows(t, 'SELECT id FROM page_versions WHERE page_group_id = ?', [group.pageGroupId])).length).toBe(50);
  });
});

describe('GET /v0/page_groups/{page_group_id}/pages', () => {
  it('lists the group’s pages newest first, walking pages of 2', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId);
    const other = await p.group(tenant.tenantId);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPage(tenant, group.pageGroupId)).body.pageId);
    await createPage(tenant, other.pageGroupId);
    const seen: any[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.http.get(`/v0/page_groups/${group.pageGroupId}/pages?limit=2${cursor ? `&cursor=${cursor}` : ''}`).set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('limit');
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen.map((page) => page.pageId)).toEqual([...ids].reverse());
    expect(Object.keys(seen[0])).toEqual(['pageId', 'pageGroupId', 'tenantId', 'createdAt', 'updatedAt']);
  });

  it('refuses a cursor from another group’s list', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const a = await p.group(tenant.tenantId);
    const b = await p.group(tenant.tenantId);
    for (let i = 0; i < 2; i++) await createPage(tenant, a.pageGroupId);
    const first = await t.http.get(`/v0/page_groups/${a.pageGroupId}/pages?limit=1`).set('x-api-key', tenant.apiKey);
    const res = await t.http.get(`/v0/page_groups/${b.pageGroupId}/pages?cursor=${first.body.nextCursor}`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('cursor');
  });
});
