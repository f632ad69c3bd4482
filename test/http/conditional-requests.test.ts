import { brandBody } from '../support/builders/request-bodies';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Issue 46, item 2: ETag, If-None-Match (304, not counted) and If-Match (412) on single resources.
let t: TestApp;
beforeAll(async () => {
  // A budget whose count shows in RateLimit-Remaining, in a day-long window: windows are aligned to
  // the clock, and an edge among the test's requests would reset the count (rate-limit.test.ts).
  t = await startTestApp({ env: { RATE_LIMIT_MAX: '500', RATE_LIMIT_WINDOW_SECONDS: '86400' } });
});
afterAll(() => t.close());

const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;

const as = (tenant: TestTenant) => ({
  get: (path: string, headers: Record<string, string> = {}) => t.http.get(path).set('x-api-key', tenant.apiKey).set(headers),
  patch: (path: string, body: object, headers: Record<string, string> = {}) => t.http.patch(path).set('x-api-key', tenant.apiKey).set(headers).send(body),
  post: (path: string, body: object) => t.http.post(path).set('x-api-key', tenant.apiKey).send(body),
  delete: (path: string, headers: Record<string, string> = {}) => t.http.delete(path).set('x-api-key', tenant.apiKey).set(headers),
});

async function brandOfNewTenant() {
  const tenant = await createTenant(t, 'Conditional');
  const brand = (await as(tenant).post('/v0/brands', brandBody()).expect(201)).body;
  return { tenant, path: `/v0/brands/${brand.brandId}` };
}

describe('conditional reads', () => {
  it('tags a brand with a strong ETag and answers a matching If-None-Match with 304, no body, at half the cost of a request', async () => {
    const { tenant, path } = await brandOfNewTenant();
    const first = await as(tenant).get(path).expect(200);
    const tag = first.headers.etag;
    expect(tag).toMatch(STRONG_TAG);
    const remaining = Number(first.headers['ratelimit-remaining']);

    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const again = await as(tenant).get(path, { 'If-None-Match': tag });
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(tag);
      expect(again.headers['x-request-id']).toMatch(/^req_/);
      seen.push(Number(again.headers['ratelimit-remaining']));
    }
    // Every second 304 is taken back off the budget: four cost two requests.
    expect(seen).toEqual([remaining - 1, remaining - 1, remaining - 2, remaining - 2]);
    // A weak form of the same tag matches too (If-None-Match compares weakly), and so does a list; `*` as well, at the same cost.
    expect((await as(tenant).get(path, { 'If-None-Match': `"nope", W/${tag}` })).status).toBe(304);
    expect((await as(tenant).get(path, { 'If-None-Match': '*' })).status).toBe(304);
    const counted = await as(tenant).get(path, { 'If-None-Match': '"stale"' }).expect(200);
    expect(counted.headers.etag).toBe(tag);
    expect(JSON.parse(counted.text)).toEqual(first.body);
    expect(Number(counted.headers['ratelimit-remaining'])).toBe(remaining - 4);
  });

  it('tags every single-resource read: page group, page, template, event, subscription', async () => {
    const tenant = await createTenant(t, 'Conditional reads');
    const p = platform(t);
    const template = await p.systemTemplate();
    const group = await p.group(tenant.tenantId, { pageTemplateId: template.pageTemplateId });
    const page = (await as(tenant).post(`/v0/page_groups/${group.pageGroupId}/pages`, {}).expect(201)).body;
    const subscription = (await as(tenant).post('/v0/webhook_subscriptions', { url: 'https://example.com/hook', events: ['page.version.created'] }).expect(201)).body;
    const events = (await as(tenant).get('/v0/events').expect(200)).body.items;
    const paths = [
      `/v0/page_groups/${group.pageGroupId}`,
      `/v0/page_groups/${group.pageGroupId}/pages/${page.pageId}`,
      `/v0/templates/${template.pageTemplateId}`,
      `/v0/events/${events[0].id}`,
      `/v0/webhook_subscriptions/${subscription.id}`,
    ];
    for (const path of paths) {
      const res = await as(tenant).get(path).expect(200);
      expect({ path, tag: res.headers.etag }).toEqual({ path, tag: expect.stringMatching(STRONG_TAG) });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect((await as(tenant).get(path, { 'If-None-Match': res.headers.etag })).status).toBe(304);
    }
    // A new version changes the page's answer, so its tag.
    const pagePath = paths[1];
    const before = (await as(tenant).get(pagePath)).headers.etag;
    await as(tenant).post(`${pagePath}/versions`, {}).expect(201);
    expect((await as(tenant).get(pagePath, { 'If-None-Match': before })).status).toBe(200);
  });

  it('refuses a malformed If-None-Match with 400 naming the header', async () => {
    const { tenant, path } = await brandOfNewTenant();
    const res = await as(tenant).get(path, { 'If-None-Match': 'no-quotes' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'If-None-Match' } });
  });
});

describe('conditional writes', () => {
  it('applies a PATCH whose If-Match is current, answering the new ETag, and refuses a stale one with 412, writing nothing', async () => {
    const { tenant, path } = await brandOfNewTenant();
    const tag = (await as(tenant).get(path)).headers.etag;
    const patched = await as(tenant).patch(path, { name: 'First' }, { 'If-Match': tag }).expect(200);
    expect(patched.headers.etag).toMatch(STRONG_TAG);
    expect(patched.headers.etag).not.toBe(tag);
    expect((await as(tenant).get(path)).headers.etag).toBe(patched.headers.etag);

    const stale = await as(tenant).patch(path, { name: 'Second' }, { 'If-Match': tag });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({
      code: 'PRECONDITION_FAILED',
      message: `The resource has changed since the ETag in If-Match; its current ETag is ${patched.headers.etag}.`,
      requestId: stale.headers['x-request-id'],
      details: { currentETag: patched.headers.etag },
    });
    expect((await as(tenant).get(path)).body.name).toBe('First');
    // If-Match compares strongly: the weak form of the current tag does not hold.
    expect((await as(tenant).patch(path, { name: 'Third' }, { 'If-Match': `W/${patched.headers.etag}` })).status).toBe(412);
    expect((await as(tenant).patch(path, { name: 'Star' }, { 'If-Match': '*' })).status).toBe(200);
  });

  it('lets exactly one of two writers holding the same ETag win', async () => {
    const { tenant, path } = await brandOfNewTenant();
    const tag = (await as(tenant).get(path)).headers.etag;
    const answers = await Promise.all(['Writer A', 'Writer B'].map((name) => as(tenant).patch(path, { name }, { 'If-Match': tag })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = answers.find((res) => res.status === 200)!;
    expect((await as(tenant).get(path)).body.name).toBe(winner.body.name);
    expect(await rows(t, 'SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = ? AND type = ?', [tenant.tenantId, 'brand.updated'])).toEqual([{ n: 1 }]);
  });

  it('makes a subscription PATCH and DELETE conditional too', async () => {
    const tenant = await createTenant(t, 'Conditional subscriptions');
    const subscription = (await as(tenant).post('/v0/webhook_subscriptions', { url: 'https://example.com/hook', events: ['page.version.created'] }).expect(201)).body;
    const path = `/v0/webhook_subscriptions/${subscription.id}`;
    const tag = (await as(tenant).get(path)).headers.etag;
    const patched = await as(tenant).patch(path, { active: false }, { 'If-Match': tag }).expect(200);
    expect(patched.headers.etag).toBe((await as(tenant).get(path)).headers.etag);
    expect((await as(tenant).delete(path, { 'If-Match': tag })).status).toBe(412);
    expect((await as(tenant).get(path)).status).toBe(200);
    expect((await as(tenant).delete(path, { 'If-Match': patched.headers.etag })).status).toBe(204);
    expect((await as(tenant).get(path)).status).toBe(404);
  });

  it("keeps a subscription's If-Match holding while deliveries move its health, and a conditional GET still sees the change", async () => {
    const tenant = await createTenant(t, 'Conditional health');
    const subscription = (await as(tenant).post('/v0/webhook_subscriptions', { url: 'https://example.com/hook', events: ['page.version.created'] }).expect(201)).body;
    const path = `/v0/webhook_subscriptions/${subscription.id}`;
    const tag = (await as(tenant).get(path)).headers.etag;
    // What a failed attempt writes: the endpoint's health, not its configuration.
    await rows(t, 'UPDATE webhook_subscriptions SET consecutive_failures = 1, last_failure_at = now() WHERE id = ?', [subscription.id]);
    const moved = await as(tenant).get(path, { 'If-None-Match': tag }).expect(200);
    expect(moved.body.health.consecutiveFailures).toBe(1);
    expect(moved.headers.etag).toMatch(STRONG_TAG);
    expect(moved.headers.etag).not.toBe(tag);
    const patched = await as(tenant).patch(path, { active: false }, { 'If-Match': tag }).expect(200);
    // A change of the configuration since the GET is still refused.
    expect((await as(tenant).patch(path, { active: true }, { 'If-Match': tag })).status).toBe(412);
    expect((await as(tenant).patch(path, { active: true }, { 'If-Match': patched.headers.etag })).status).toBe(200);
  });

  it('refuses a malformed If-Match with 400 naming the header, writing nothing', async () => {
    const { tenant, path } = await brandOfNewTenant();
    const res = await as(tenant).patch(path, { name: 'Never' }, { 'If-Match': 'abc' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'If-Match' } });
    expect((await as(tenant).get(path)).body.name).not.toBe('Never');
  });
});
