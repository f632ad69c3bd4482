import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { brandBody } from '../support/builders/request-bodies';
import { inContext } from '../support/database';
import { eventually } from '../support/eventually';
import { holdPageCreations } from '../support/page-creation-lock';
import { platform, rows } from '../support/platform';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { subscriptionBody } from '../support/builders/subscriptions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const brands = async (tenant: TestTenant) => (await rows(t, 'SELECT id FROM brands WHERE tenant_id = ?', [tenant.tenantId])).length;
const post = (tenant: TestTenant, key: string, body: object, path = '/v0/brands', app = t) =>
  app.http.post(path).set('x-api-key', tenant.apiKey).set('Idempotency-Key', key).send(body);

describe('Idempotency-Key', () => {
  it('replays the first response to a retry, with Idempotent-Replayed, creating nothing more', async () => {
    const tenant = await createTenant(t);
    const first = await post(tenant, 'order-1', brandBody());
    const again = await post(tenant, 'order-1', brandBody());
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await brands(tenant)).toBe(1);
  });

  it("belongs to the API key that sent it: the tenant's other key with the same Idempotency-Key runs its own request and never gets the first one's answer", async () => {
    const tenant = await createTenant(t);
    const other = await inContext(t.orm, () => t.app.get(CreateApiKey).execute({ tenantId: tenant.tenantId }));
    const first = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).set('Idempotency-Key', 'shared').send(subscriptionBody('https://hooks.example/shared'));
    const second = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', other.apiKey).set('Idempotency-Key', 'shared').send(subscriptionBody('https://hooks.example/shared'));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.signingSecret).not.toBe(first.body.signingSecret);
    // Each key's retry still replays its own answer.
    const again = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', other.apiKey).set('Idempotency-Key', 'shared').send(subscriptionBody('https://hooks.example/shared'));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(second.body.id);
  });

  it('treats the same body with other whitespace and key order as the same request', async () => {
    const tenant = await createTenant(t);
    await post(tenant, 'k', { name: 'A', preferredAppearance: 'dark', themeLight: {}, themeDark: {} });
    const res = await t.http
      .post('/v0/brands')
      .set('x-api-key', tenant.apiKey)
      .set('Idempotency-Key', 'k')
      .set('content-type', 'application/json')
      .send('{ "themeDark": {}, "themeLight": {}, "preferredAppearance": "dark", "name": "A" }');
    expect(res.headers['idempotent-replayed']).toBe('true');
  });

  it('is a 422 IDEMPOTENCY_KEY_REUSED for the same key with another body or path', async () => {
    const tenant = await createTenant(t);
    await post(tenant, 'reuse', brandBody());
    const otherBody = await post(tenant, 'reuse', brandBody({ name: 'Other' }));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', requestId: expect.stringMatching(/^req_/) });
    const group = await platform(t).group(tenant.tenantId);
    const otherPath = await post(tenant, 'reuse', {}, `/v0/page_groups/${group.pageGroupId}/pages`);
    expect(otherPath.status).toBe(422);
    expect(await brands(tenant)).toBe(1);
  });

  it('is a 409 CONFLICT while the first request with the key is still running, then replays its answer', async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const path = `/v0/page_groups/${group.pageGroupId}/pages`;
    // The first request is really in flight: held up on the group's counter rows by another session.
    const lock = await holdPageCreations(t, group.pageGroupId);
    let first;
    try {
      first = post(tenant, 'slow', {}, path).then((res) => res);
      await eventually(() => lock.blocked(), (n) => n === 1);
      const during = await post(tenant, 'slow', {}, path);
      expect(during.status).toBe(409);
      expect(during.body).toMatchObject({ code: 'CONFLICT', details: { header: 'Idempotency-Key' } });
      // Another body under the held key is also 409: the running request's body is not known yet.
      expect((await post(tenant, 'slow', { supplementaryContext: 'other' }, path)).status).toBe(409);
    } finally {
      await lock.release();
    }
    const answered = await first!;
    expect(answered.status).toBe(201);
    const replay = await post(tenant, 'slow', {}, path);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(answered.body);
    expect((await post(tenant, 'slow', { supplementaryContext: 'other' }, path)).status).toBe(422);
  });

  it('lets exactly one of many parallel identical requests create, the others replay or wait', async () => {
    const tenant = await createTenant(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => post(tenant, 'burst', brandBody())));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201 && !r.headers['idempotent-replayed'])).toHaveLength(1);
    expect(await brands(tenant)).toBe(1);
  });

  it('keeps nothing for a request that failed, so the corrected retry with the same key runs', async () => {
    const tenant = await createTenant(t);
    const bad = await post(tenant, 'fix-me', brandBody({ name: '' }));
    expect(bad.status).toBe(400);
    const good = await post(tenant, 'fix-me', brandBody());
    expect(good.status).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('holds across API instances and restarts (kept in PostgreSQL), per tenant, for 24 h', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    const first = await post(tenant, 'durable', brandBody());
    const second = await startTestApp({ orm: t.orm });
    try {
      const replay = await post(tenant, 'durable', brandBody(), '/v0/brands', second);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.brandId).toBe(first.body.brandId);
      // Keys are per tenant: another tenant's same key is its own.
      expect((await post(other, 'durable', brandBody(), '/v0/brands', second)).headers['idempotent-replayed']).toBeUndefined();
    } finally {
      await second.close();
    }
    await rows(t, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE tenant_id = ?`, [tenant.tenantId]);
    const afterExpiry = await post(tenant, 'durable', brandBody());
    expect(afterExpiry.headers['idempotent-replayed']).toBeUndefined();
    expect(afterExpiry.body.brandId).not.toBe(first.body.brandId);
  });

  it('keeps stored responses encrypted: a replayed webhook secret is not in the table in clear', async () => {
    const tenant = await createTenant(t);
    const body = subscriptionBody('https://hooks.example.com/x');
    const first = await post(tenant, 'hook', body, '/v0/webhook_subscriptions');
    const replay = await post(tenant, 'hook', body, '/v0/webhook_subscriptions');
    expect(replay.body.signingSecret).toBe(first.body.signingSecret);
    const stored = await rows(t, 'SELECT * FROM idempotency_keys WHERE tenant_id = ?', [tenant.tenantId]);
    expect(JSON.stringify(stored)).not.toContain(first.body.signingSecret.slice(6));
  });

  it.each([[''], ['x'.repeat(256)], ['tab\there'], ['ünïcode']])('refuses the key %j with a 400 naming the header', async (key) => {
    const tenant = await createTenant(t);
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('Idempotency-Key', key).send(brandBody());
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ field: 'Idempotency-Key', reason: 'must be 1 to 255 printable ASCII characters' });
    expect(await brands(tenant)).toBe(0);
  });

  it('applies to every POST: pages and template copies replay too', async () => {
    const tenant = await createTenant(t);
    const p = platform(t);
    const group = await p.group(tenant.tenantId);
    const page = [await post(tenant, 'p', {}, `/v0/page_groups/${group.pageGroupId}/pages`), await post(tenant, 'p', {}, `/v0/page_groups/${group.pageGroupId}/pages`)];
    expect(page[1].body.pageId).toBe(page[0].body.pageId);
    expect((await rows<{ pages_count: number }>(t, 'SELECT sum(pages_count)::int AS pages_count FROM page_group_counters WHERE page_group_id = ?', [group.pageGroupId]))[0].pages_count).toBe(1);
    const template = await p.systemTemplate();
    const copies = [await post(tenant, 'c', {}, `/v0/templates/${template.pageTemplateId}/duplicate`), await post(tenant, 'c', {}, `/v0/templates/${template.pageTemplateId}/duplicate`)];
    expect(copies[1].body.pageTemplateId).toBe(copies[0].body.pageTemplateId);
  });
});
