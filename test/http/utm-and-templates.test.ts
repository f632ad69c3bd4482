import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /v0/page_groups/{page_group_id}/utm_parameters', () => {
  it('gives empty arrays for a group with no sessions', async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const res = await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ parameters: { utm_campaigns: [], utm_contents: [], utm_mediums: [], utm_sources: [], utm_terms: [] } });
  });

  it('gives the distinct values of the group’s sessions, each array sorted, and nothing of other groups', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId);
    const other = await p.group(tenant.tenantId);
    const pageA = (await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey)).body.pageId;
    const pageB = (await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey)).body.pageId;
    const pageOther = (await t.http.post(`/v0/page_groups/${other.pageGroupId}/pages`).set('x-api-key', tenant.apiKey)).body.pageId;
    await p.session(tenant.tenantId, pageA, { source: 'newsletter', medium: 'email', campaign: 'spring' });
    await p.session(tenant.tenantId, pageB, { source: 'google', medium: 'cpc', campaign: 'spring', term: 'landing pages', content: 'ad-b' });
    await p.session(tenant.tenantId, pageA, { source: 'google', medium: 'cpc', content: 'ad-a' });
    await p.session(tenant.tenantId, pageB, { source: 'Zeta' });
    await p.session(tenant.tenantId, pageB, {});
    await p.session(tenant.tenantId, pageOther, { source: 'elsewhere' });
    const res = await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', tenant.apiKey);
    expect(res.body).toEqual({
      parameters: {
        utm_campaigns: ['spring'],
        utm_contents: ['ad-a', 'ad-b'],
        utm_mediums: ['cpc', 'email'],
        utm_sources: ['Zeta', 'google', 'newsletter'],
        utm_terms: ['landing pages'],
      },
    });
    expect((await rows(t, 'SELECT id FROM page_sessions WHERE page_group_id = ?', [group.pageGroupId])).length).toBe(5);
  });

  it('answers JSON-special and non-ASCII values exactly, as application/json', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId);
    const page = (await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey)).body.pageId;
    await p.session(tenant.tenantId, page, { source: 'say "hi" \\ back', campaign: 'été 🚀', term: '</script>' });
    const res = await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.parameters).toEqual({ utm_campaigns: ['été 🚀'], utm_contents: [], utm_mediums: [], utm_sources: ['say "hi" \\ back'], utm_terms: ['</script>'] });
  });

  it('is a 404 once the group is deleted, and for another tenant', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId);
    expect((await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', other.apiKey)).status).toBe(404);
    await p.deleteGroup(tenant.tenantId, group.pageGroupId);
    expect((await t.http.get(`/v0/page_groups/${group.pageGroupId}/utm_parameters`).set('x-api-key', tenant.apiKey)).status).toBe(404);
  });
});

describe('POST /v0/templates/{template_id}/duplicate', () => {
  const TEMPLATE_FIELDS = ['pageTemplateId', 'sourcePageTemplateId', 'name', 'description', 'templateContent', 'isEditable', 'isSystem', 'version', 'createdAt', 'updatedAt'];

  it('copies a system template into the tenant’s own: 201, "Copy of …", editable, version 1, never updated', async () => {
    const tenant = await createTenant(t);
    const system = await platform(t).systemTemplate('Lead capture');
    const res = await t.http.post(`/v0/templates/${system.pageTemplateId}/duplicate`).set('x-api-key', tenant.apiKey);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(TEMPLATE_FIELDS);
    expect(res.body).toEqual({
      pageTemplateId: expect.stringMatching(/^pagetemplate_[0-9a-z]{26}$/),
      sourcePageTemplateId: system.pageTemplateId,
      name: 'Copy of Lead capture',
      description: system.description,
      templateContent: system.templateContent,
      isEditable: true,
      isSystem: false,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: null,
    });
    expect(system).toMatchObject({ isSystem: true, isEditable: false, version: 1, sourcePageTemplateId: null, updatedAt: null });
  });

  it('names the copy as asked, and copies the tenant’s own copies too', async () => {
    const tenant = await createTenant(t);
    const system = await platform(t).systemTemplate();
    const copy = await t.http.post(`/v0/templates/${system.pageTemplateId}/duplicate`).set('x-api-key', tenant.apiKey).send({ name: 'Mine' });
    expect(copy.body.name).toBe('Mine');
    const again = await t.http.post(`/v0/templates/${copy.body.pageTemplateId}/duplicate`).set('x-api-key', tenant.apiKey).send({});
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ name: 'Copy of Mine', sourcePageTemplateId: copy.body.pageTemplateId });
  });

  it('is a 404 for another tenant’s template, an unknown or malformed id', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const system = await platform(t).systemTemplate();
    const theirs = await t.http.post(`/v0/templates/${system.pageTemplateId}/duplicate`).set('x-api-key', other.apiKey);
    for (const id of [theirs.body.pageTemplateId, 'pagetemplate_01jdq8w9k1a2b3c4d5e6f7g8h9', 'x', 'page_01jdq8w9k1a2b3c4d5e6f7g8h9']) {
      const res = await t.http.post(`/v0/templates/${id}/duplicate`).set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: null }, 'name'],
    [{ name: 3 }, 'name'],
    [{ description: 'x' }, 'description'],
  ])('refuses %j naming %s, writing nothing', async (body, field) => {
    const tenant = await createTenant(t);
    const system = await platform(t).systemTemplate();
    const res = await t.http.post(`/v0/templates/${system.pageTemplateId}/duplicate`).set('x-api-key', tenant.apiKey).send(body);
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
    expect(await rows(t, 'SELECT id FROM templates WHERE tenant_id = ?', [tenant.tenantId])).toEqual([]);
  });
});
