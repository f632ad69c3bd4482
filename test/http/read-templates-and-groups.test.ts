import { platform } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Issue 21, items 1 and 2: templates and one page group can be read, not only walked to.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (tenant: TestTenant, path: string) => t.http.get(path).set('x-api-key', tenant.apiKey);
const duplicate = async (tenant: TestTenant, templateId: string, name: string) =>
  (await t.http.post(`/v0/templates/${templateId}/duplicate`).set('x-api-key', tenant.apiKey).send({ name }).expect(201)).body;

/** Every item of a list, walking its cursors. */
async function walk(tenant: TestTenant, path: string, limit: number): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const res = await get(tenant, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
    expect(res.body.nextCursor !== undefined).toBe(res.body.hasMore);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

describe('GET /v0/templates', () => {
  it('lists the tenant’s own templates (custom) newest first, walked page by page', async () => {
    const tenant = await createTenant(t);
    const system = await platform(t).systemTemplate('Base');
    const copies = [];
    for (const name of ['One', 'Two', 'Three']) copies.push(await duplicate(tenant, system.pageTemplateId, name));
    const custom = await walk(tenant, '/v0/templates?type=custom', 2);
    expect(custom).toEqual([...copies].reverse());
  });

  it('lists system and own templates together, never another tenant’s; `system` keeps the platform’s', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const system = await platform(t).systemTemplate('Shared');
    const mine = await duplicate(tenant, system.pageTemplateId, 'Mine');
    const theirs = await duplicate(other, system.pageTemplateId, 'Theirs');
    const all = await walk(tenant, '/v0/templates', 100);
    const ids = all.map((item) => item.pageTemplateId);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(ids).toEqual(expect.arrayContaining([system.pageTemplateId, mine.pageTemplateId]));
    expect(ids).not.toContain(theirs.pageTemplateId);
    expect(all.find((item) => item.pageTemplateId === system.pageTemplateId)).toEqual(system);
    expect(all.filter((item) => !item.isSystem).map((item) => item.pageTemplateId)).toEqual([mine.pageTemplateId]);
    const systemOnly = await walk(tenant, '/v0/templates?type=system', 100);
    expect(systemOnly.every((item) => item.isSystem)).toBe(true);
    expect(systemOnly.map((item) => item.pageTemplateId)).toContain(system.pageTemplateId);
  });

  it('refuses a bad type, and a cursor of another filter, naming the parameter', async () => {
    const tenant = await createTenant(t);
    await platform(t).systemTemplate('A');
    await platform(t).systemTemplate('B');
    const bad = await get(tenant, '/v0/templates?type=mine');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({ field: 'type', reason: 'must be one of: system, custom' });
    const first = (await get(tenant, '/v0/templates?type=system&limit=1').expect(200)).body;
    expect(first.hasMore).toBe(true);
    const crossed = await get(tenant, `/v0/templates?type=custom&cursor=${first.nextCursor}`);
    expect(crossed.status).toBe(400);
    expect(crossed.body.details.field).toBe('cursor');
  });
});

describe('GET /v0/templates/{template_id}', () => {
  it('answers a system template and one of the tenant’s; another tenant’s, an unknown or a malformed id is a 404', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const system = await platform(t).systemTemplate('Readable');
    const mine = await duplicate(tenant, system.pageTemplateId, 'Readable copy');
    const theirs = await duplicate(other, system.pageTemplateId, 'Not yours');
    expect((await get(tenant, `/v0/templates/${system.pageTemplateId}`).expect(200)).body).toEqual(system);
    expect((await get(tenant, `/v0/templates/${mine.pageTemplateId}`).expect(200)).body).toEqual(mine);
    for (const id of [theirs.pageTemplateId, 'pagetemplate_01jdq8w9k1a2b3c4d5e6f7g8h9', 'x', 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9']) {
      const res = await get(tenant, `/v0/templates/${id}`);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
    }
  });
});

describe('GET /v0/page_groups/{page_group_id}', () => {
  it('answers exactly the list item; another tenant’s, a soft-deleted or a malformed id is a 404', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId, { name: 'Spring', title: 'Spring sale', status: 'published' });
    const listed = (await get(tenant, '/v0/page_groups').expect(200)).body.items.find((item: any) => item.pageGroupId === group.pageGroupId);
    const res = await get(tenant, `/v0/page_groups/${group.pageGroupId}`).expect(200);
    expect(res.body).toEqual(listed);
    expect(Object.keys(res.body)).toEqual(Object.keys(listed));
    expect((await get(other, `/v0/page_groups/${group.pageGroupId}`)).status).toBe(404);
    expect((await get(tenant, '/v0/page_groups/page_01jdq8w9k1a2b3c4d5e6f7g8h9')).status).toBe(404);
    expect((await get(tenant, '/v0/page_groups/not-an-id')).status).toBe(404);
    await p.deleteGroup(tenant.tenantId, group.pageGroupId);
    const gone = await get(tenant, `/v0/page_groups/${group.pageGroupId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NOT_FOUND');
  });
});
