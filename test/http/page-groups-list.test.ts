import { platform } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const GROUP_FIELDS = [
  'pageGroupId', 'tenantId', 'brandId', 'name', 'title', 'pageContext', 'pageTemplateId', 'headerActionId', 'status',
  'pagesCount', 'actions', 'footerLinks', 'scripts', 'createdAt', 'updatedAt', 'deletedAt',
];

const list = (tenant: TestTenant, query = '') => t.http.get(`/v0/page_groups${query}`).set('x-api-key', tenant.apiKey);

describe('GET /v0/page_groups', () => {
  it('lists the tenant’s live groups newest first, every field present, with the limit echoed', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const template = await p.systemTemplate();
    const first = await p.group(tenant.tenantId, {
      name: 'Spring',
      title: 'Spring sale',
      pageTemplateId: template.pageTemplateId,
      pageContext: 'context',
      actions: [{ type: 'link', label: 'Go', url: 'https://x.example' }],
    });
    const second = await p.group(tenant.tenantId, { name: 'Bare' });
    const res = await list(tenant);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items', 'hasMore', 'limit']);
    expect(res.body.limit).toBe(20);
    expect(res.body.items.map((g: any) => g.pageGroupId)).toEqual([second.pageGroupId, first.pageGroupId]);
    expect(Object.keys(res.body.items[1])).toEqual(GROUP_FIELDS);
    expect(res.body.items[1]).toMatchObject({
      name: 'Spring', title: 'Spring sale', pageContext: 'context', pageTemplateId: template.pageTemplateId, status: 'draft',
      pagesCount: 0, actions: [{ type: 'link', label: 'Go', url: 'https://x.example' }], footerLinks: [], scripts: [], deletedAt: null,
    });
    expect(res.body.items[0]).toMatchObject({ brandId: null, title: null, pageContext: null, pageTemplateId: null, headerActionId: null });
  });

  it('filters by each status, and refuses any other value naming `status`', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const ids: Record<string, string> = {};
    for (const status of ['draft', 'published', 'archived'] as const) ids[status] = (await p.group(tenant.tenantId, { name: status, status })).pageGroupId;
    for (const status of ['draft', 'published', 'archived']) {
      const res = await list(tenant, `?status=${status}`);
      expect(res.body.items.map((g: any) => g.pageGroupId)).toEqual([ids[status]]);
    }
    expect((await list(tenant)).body.items).toHaveLength(3);
    for (const bad of ['DRAFT', 'deleted', '', 'draft,published']) {
      const res = await list(tenant, `?status=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual({ field: 'status', reason: 'must be one of: draft, published, archived' });
    }
  });

  it('follows a status change made on the platform side', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId, { status: 'draft' });
    await p.setStatus(tenant.tenantId, group.pageGroupId, 'published');
    expect((await list(tenant, '?status=draft')).body.items).toEqual([]);
    const published = (await list(tenant, '?status=published')).body.items;
    expect(published.map((g: any) => g.pageGroupId)).toEqual([group.pageGroupId]);
    expect(published[0].updatedAt > published[0].createdAt).toBe(true);
  });

  it('hides soft-deleted groups and never shows another tenant’s', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const p = platform(t);
    const kept = await p.group(tenant.tenantId, { name: 'kept' });
    const gone = await p.group(tenant.tenantId, { name: 'gone' });
    await p.group(other.tenantId, { name: 'theirs' });
    await p.deleteGroup(tenant.tenantId, gone.pageGroupId);
    const res = await list(tenant);
    expect(res.body.items.map((g: any) => g.pageGroupId)).toEqual([kept.pageGroupId]);
  });

  it('walks 25 groups in pages of 10 with the filter kept, and refuses a cursor of another filter', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await p.group(tenant.tenantId, { name: `g${i}`, status: 'published' })).pageGroupId);
    await p.group(tenant.tenantId, { name: 'draft one', status: 'draft' });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await list(tenant, `?status=published&limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.limit).toBe(10);
      expect('nextCursor' in res.body).toBe(res.body.hasMore);
      seen.push(...res.body.items.map((g: any) => g.pageGroupId));
      cursor = res.body.nextCursor;
      if (cursor) {
        const crossed = await list(tenant, `?status=draft&cursor=${cursor}`);
        expect(crossed.status).toBe(400);
        expect(crossed.body.details.field).toBe('cursor');
      }
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });
});
