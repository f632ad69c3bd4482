import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Issue 21, items 3 to 5: one page, its versions, and a new version through the API.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const as = (tenant: TestTenant) => ({
  get: (path: string) => t.http.get(path).set('x-api-key', tenant.apiKey),
  post: (path: string, body?: object) => {
    const req = t.http.post(path).set('x-api-key', tenant.apiKey);
    return body === undefined ? req : req.send(body);
  },
});

async function pageOfNewTenant(body: object = {}) {
  const tenant = await createTenant(t);
  const p = platform(t);
  const template = await p.systemTemplate();
  const group = await p.group(tenant.tenantId, { pageTemplateId: template.pageTemplateId });
  const page = (await as(tenant).post(`/v0/page_groups/${group.pageGroupId}/pages`, body).expect(201)).body;
  return { tenant, template, group, page, base: `/v0/page_groups/${group.pageGroupId}/pages/${page.pageId}` };
}

describe('GET /v0/page_groups/{page_group_id}/pages/{page_id}', () => {
  it('answers the list fields, the current content and the counts', async () => {
    const { tenant, template, group, page, base } = await pageOfNewTenant({ supplementaryContext: 'first' });
    await platform(t).session(tenant.tenantId, page.pageId, { source: 'news' });
    await platform(t).session(tenant.tenantId, page.pageId, {});
    const res = await as(tenant).get(base).expect(200);
    expect(Object.keys(res.body)).toEqual(['pageId', 'pageGroupId', 'tenantId', 'createdAt', 'updatedAt', 'pageTemplateId', 'supplementaryContext', 'currentVersion', 'versionsCount', 'sessionsCount']);
    expect(res.body).toEqual({
      pageId: page.pageId, pageGroupId: group.pageGroupId, tenantId: tenant.tenantId, createdAt: page.createdAt, updatedAt: page.createdAt,
      pageTemplateId: template.pageTemplateId, supplementaryContext: 'first', currentVersion: 1, versionsCount: 1, sessionsCount: 2,
    });
    const listed = (await as(tenant).get(`/v0/page_groups/${group.pageGroupId}/pages`).expect(200)).body.items[0];
    for (const key of Object.keys(listed)) expect(res.body[key]).toEqual(listed[key]);
  });

  it('is a 404 for another tenant, another group, a deleted group and a malformed id', async () => {
    const { tenant, group, page, base } = await pageOfNewTenant();
    const other = await createTenant(t);
    await as(other).get(base).expect(404);
    const sibling = await platform(t).group(tenant.tenantId);
    const wrongGroup = await as(tenant).get(`/v0/page_groups/${sibling.pageGroupId}/pages/${page.pageId}`).expect(404);
    expect(wrongGroup.body).toMatchObject({ code: 'NOT_FOUND' });
    await as(tenant).get(`/v0/page_groups/${group.pageGroupId}/pages/pagevar_nope`).expect(404);
    await platform(t).deleteGroup(tenant.tenantId, group.pageGroupId);
    await as(tenant).get(base).expect(404);
    await as(tenant).get(`${base}/versions`).expect(404);
    await as(tenant).post(`${base}/versions`, {}).expect(404);
    await as(tenant).get(`${base}/stats`).expect(404);
  });
});

describe('POST and GET …/pages/{page_id}/versions', () => {
  it('creates the next version, carrying absent fields over, and emits its event in the same transaction', async () => {
    const { tenant, template, page, base } = await pageOfNewTenant({ supplementaryContext: 'first' });
    const custom = (await as(tenant).post(`/v0/templates/${template.pageTemplateId}/duplicate`, { name: 'Mine' }).expect(201)).body;
    const second = (await as(tenant).post(`${base}/versions`).expect(201)).body;
    expect(Object.keys(second)).toEqual(['pageVersionId', 'number', 'pageTemplateId', 'supplementaryContext', 'createdAt']);
    expect(second).toMatchObject({ pageVersionId: expect.stringMatching(/^pagever_[0-9a-z]{26}$/), number: 2, pageTemplateId: template.pageTemplateId, supplementaryContext: 'first' });
    const third = (await as(tenant).post(`${base}/versions`, { pageTemplateId: custom.pageTemplateId, supplementaryContext: null }).expect(201)).body;
    expect(third).toMatchObject({ number: 3, pageTemplateId: custom.pageTemplateId, supplementaryContext: null });

    const events = await rows<{ body: string }>(t, `SELECT body FROM outbox_events WHERE body LIKE ? ORDER BY id`, [`%${page.pageId}%`]);
    expect(events.map((e) => JSON.parse(e.body).data)).toEqual([
      expect.objectContaining({ version: 1 }),
      { pageVersionId: second.pageVersionId, pageId: page.pageId, pageGroupId: page.pageGroupId, version: 2, createdAt: second.createdAt },
      expect.objectContaining({ pageVersionId: third.pageVersionId, version: 3 }),
    ]);
    const detail = (await as(tenant).get(base).expect(200)).body;
    expect(detail).toMatchObject({ pageTemplateId: custom.pageTemplateId, supplementaryContext: null, currentVersion: 3, versionsCount: 3, updatedAt: third.createdAt });
    const listed = (await as(tenant).get(`${base}/versions`).expect(200)).body;
    expect(listed).toEqual({ items: [third, second, expect.objectContaining({ number: 1, pageTemplateId: template.pageTemplateId, supplementaryContext: 'first' })], hasMore: false });
  });

  it('walks the versions newest first, page by page', async () => {
    const { tenant, base } = await pageOfNewTenant();
    for (let i = 0; i < 4; i++) await as(tenant).post(`${base}/versions`).expect(201);
    const numbers: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await as(tenant).get(`${base}/versions?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      numbers.push(...res.body.items.map((v: { number: number }) => v.number));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(numbers).toEqual([5, 4, 3, 2, 1]);
    const other = await pageOfNewTenant();
    const first = (await as(tenant).get(`${base}/versions?limit=2`).expect(200)).body;
    const refused = await as(other.tenant).get(`${other.base}/versions?cursor=${first.nextCursor}`).expect(400);
    expect(refused.body.details).toMatchObject({ field: 'cursor' });
  });

  it('gives 20 concurrent creations the numbers 2 to 21 with one event each', async () => {
    const { tenant, page, base } = await pageOfNewTenant();
    const made = await Promise.all(Array.from({ length: 20 }, () => as(tenant).post(`${base}/versions`)));
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(made.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const events = await rows<{ body: string }>(t, `SELECT body FROM outbox_events WHERE body LIKE ?`, [`%${page.pageId}%`]);
    expect(events.map((e) => JSON.parse(e.body).data.version).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('refuses bad bodies naming the field, writing nothing', async () => {
    const { tenant, page, base } = await pageOfNewTenant();
    for (const [body, field] of [
      [{ supplementaryContext: '' }, 'supplementaryContext'],
      [{ supplementaryContext: 'x'.repeat(10_001) }, 'supplementaryContext'],
      [{ pageTemplateId: 42 }, 'pageTemplateId'],
      [{ pageTemplateId: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0' }, 'pageTemplateId'],
      [{ unknown: true }, 'unknown'],
    ] as const) {
      const res = await as(tenant).post(`${base}/versions`, body).expect(400);
      expect(res.body.details).toMatchObject({ field });
    }
    expect(await rows(t, 'SELECT 1 FROM page_versions WHERE page_id = ?', [page.pageId])).toHaveLength(1);
  });

  it('replays a retry with the same Idempotency-Key instead of making another version', async () => {
    const { tenant, base } = await pageOfNewTenant();
    const first = await as(tenant).post(`${base}/versions`, {}).set('Idempotency-Key', 'v-1').expect(201);
    const again = await as(tenant).post(`${base}/versions`, {}).set('Idempotency-Key', 'v-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await as(tenant).get(base).expect(200)).body.currentVersion).toBe(2);
  });
});
