import { newTypeId } from '../../src/domain/shared/type-id';
import { eventually } from '../support/eventually';
import { platform, rows } from '../support/platform';
import { createTenant, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { deliveryWorld } from '../support/delivery-world';
import { subscriptionBody } from '../support/builders/subscriptions';

// The delivery search, one delivery with its attempts, and a subscription's metrics
// (GET /v0/webhook_deliveries…, …/metrics; decisions.md 187), with the real worker sending to a
// receiver on 127.0.0.1 (retry schedule 100 ms × 4, as in every delivery test).
const receiver = new WebhookReceiver();
const world = deliveryWorld(receiver);
let t: TestApp;
beforeAll(() => {
  t = world.t;
});

interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  subjectId: string | null;
  status: string;
  attemptCount: number;
  createdAt: string;
}

const get = (tenant: TestTenant, path: string) => t.http.get(path).set('x-api-key', tenant.apiKey);
const subscribe = async (tenant: TestTenant, path: string, body: Record<string, unknown> = {}) =>
  (await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(`${receiver.url}/${path}`, body))).body.id as string;
const search = async (tenant: TestTenant, query = ''): Promise<Delivery[]> => {
  const res = await get(tenant, `/v0/webhook_deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.items;
};

/** A new page in a new group of the tenant's: its id, once every subscription's delivery of it is final. */
async function newPage(tenant: TestTenant, deliveries: number): Promise<string> {
  const group = await platform(t).group(tenant.tenantId);
  const res = await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey);
  expect(res.status).toBe(201);
  await eventually(
    () => rows<{ n: string }>(t, "SELECT count(*) AS n FROM webhook_deliveries WHERE subject_id = ? AND status IN ('delivered', 'failed')", [res.body.pageId]),
    (found) => Number(found[0].n) === deliveries,
  );
  return res.body.pageId;
}

describe('GET /v0/webhook_deliveries', () => {
  it("finds the tenant's deliveries newest first, by status, subscription, page, event type and time, and no other tenant's", async () => {
    const tenant = await createTenant(t);
    const stranger = await createTenant(t);
    const good = await subscribe(tenant, 'good');
    const bad = await subscribe(tenant, 'bad', { events: ['page.version.created', 'brand.created'] });
    await subscribe(stranger, 'stranger');
    // The bad receiver answers 410 Gone: its delivery fails at once, and the subscription is
    // turned off, so the second page goes to the good one alone.
    receiver.respond = ({ path }) => ({ status: path.endsWith('/bad') ? 410 : 204 });
    const first = await newPage(tenant, 2);
    const between = new Date();
    const second = await newPage(tenant, 1);
    await newPage(stranger, 1);

    const all = await search(tenant);
    expect(all.map((d) => [d.subjectId, d.subscriptionId])).toEqual(expect.arrayContaining([[second, good], [first, good], [first, bad]]));
    expect(all).toHaveLength(3);
    expect(all.map((d) => d.id)).toEqual([...all.map((d) => d.id)].sort().reverse());
    expect(all.every((d) => d.eventType === 'page.version.created')).toBe(true);

    const failed = await search(tenant, '?status=failed');
    expect(failed.map((d) => [d.subjectId, d.subscriptionId, d.attemptCount])).toEqual([[first, bad, 1]]);
    expect((await search(tenant, '?status=delivered')).map((d) => d.subscriptionId)).toEqual([good, good]);
    expect((await search(tenant, `?subscriptionId=${good}`)).map((d) => d.subjectId)).toEqual([second, first]);
    expect((await search(tenant, `?pageId=${first}`)).map((d) => d.subscriptionId).sort()).toEqual([good, bad].sort());
    expect((await search(tenant, `?pageId=${first}&status=failed`)).map((d) => d.subscriptionId)).toEqual([bad]);
    expect(await search(tenant, '?eventType=brand.created')).toEqual([]);
    expect((await search(tenant, `?createdAfter=${between.toISOString()}`)).map((d) => d.subjectId)).toEqual([second]);
    expect((await search(tenant, `?createdBefore=${between.toISOString()}`)).map((d) => d.subjectId)).toEqual([first, first]);
    // Another tenant's subscription or page names nothing of this tenant's.
    expect((await search(stranger)).map((d) => d.subscriptionId)).not.toContain(good);
    expect(await search(stranger, `?pageId=${first}`)).toEqual([]);
  });

  it('pages with a cursor bound to its filters', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant, 'paged');
    for (let i = 0; i < 3; i++) await newPage(tenant, 1);
    const one = await get(tenant, `/v0/webhook_deliveries?limit=2&subscriptionId=${s}`);
    expect(one.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const two = await get(tenant, `/v0/webhook_deliveries?limit=2&subscriptionId=${s}&cursor=${encodeURIComponent(one.body.nextCursor)}`);
    expect(two.body.hasMore).toBe(false);
    const ids = [...one.body.items, ...two.body.items].map((d: Delivery) => d.id);
    expect(new Set(ids).size).toBe(3);
    const elsewhere = await get(tenant, `/v0/webhook_deliveries?limit=2&status=delivered&cursor=${encodeURIComponent(one.body.nextCursor)}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'cursor' } });
  });

  it.each([
    ['status=lost', 'status'],
    ['eventType=page.deleted', 'eventType'],
    [`subscriptionId=${newTypeId('brand')}`, 'subscriptionId'],
    [`pageId=${newTypeId('page')}`, 'pageId'],
    ['brandId=x', 'brandId'],
    [`pageId=${newTypeId('pagevar')}&brandId=${newTypeId('brand')}`, 'brandId'],
    ['createdAfter=yesterday', 'createdAfter'],
    ['createdAfter=2026-12-02T00:00:00Z&createdBefore=2026-12-01T00:00:00Z', 'createdBefore'],
    ['status=failed&status=delivered', 'status'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const tenant = await createTenant(t);
    const res = await get(tenant, `/v0/webhook_deliveries?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
  });
});

describe('GET /v0/webhook_deliveries/{delivery_id}', () => {
  it('shows each attempt: the headers sent but the signatures, the status, the start of a failed answer, why and when next', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant, 'detail');
    const long = `{"error":"${'é'.repeat(1500)}"}`;
    receiver.script = [{ status: 503, body: '{"error":"database unavailable"}' }, { status: 500, body: long }, 204];
    const page = await newPage(tenant, 1);
    const [listed] = await search(tenant, `?pageId=${page}`);
    const res = await get(tenant, `/v0/webhook_deliveries/${listed.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: listed.id, subscriptionId: s, subjectId: page, status: 'delivered', attemptCount: 3, lastStatusCode: 204, trigger: 'scheduled' });
    const [a1, a2, a3] = res.body.attempts;
    expect(res.body.attempts).toHaveLength(3);
    expect(a1).toMatchObject({ attemptNumber: 1, statusCode: 503, errorKind: 'http_status', responseExcerpt: '{"error":"database unavailable"}', nextAttemptAt: expect.any(String) });
    // At most 2,048 bytes, never half a character.
    expect(Buffer.byteLength(a2.responseExcerpt)).toBeLessThanOrEqual(2048);
    expect(Buffer.byteLength(a2.responseExcerpt)).toBeGreaterThan(2040);
    expect(long.startsWith(a2.responseExcerpt)).toBe(true);
    expect(a3).toMatchObject({ attemptNumber: 3, statusCode: 204, errorKind: null, error: null, responseExcerpt: null, nextAttemptAt: null });
    // The headers are the ones the receiver got, but the signatures.
    const sent = receiver.received.map((r) => r.headers);
    res.body.attempts.forEach((attempt: { request: { headers: Record<string, string>; omittedHeaders: string[] } }, i: number) => {
      for (const [name, value] of Object.entries(attempt.request.headers)) expect([name, sent[i][name]]).toEqual([name, value]);
      expect(attempt.request.omittedHeaders.sort()).toEqual(['webhook-signature', 'x-webhook-signature-256']);
      expect(JSON.stringify(attempt)).not.toContain(String(sent[i]['webhook-signature']).slice(3, 20));
    });
  });

  it("is a 404 for another tenant's delivery and for an id that is not one", async () => {
    const tenant = await createTenant(t);
    const stranger = await createTenant(t);
    await subscribe(tenant, 'mine');
    const page = await newPage(tenant, 1);
    const [mine] = await search(tenant, `?pageId=${page}`);
    expect((await get(stranger, `/v0/webhook_deliveries/${mine.id}`)).status).toBe(404);
    expect((await get(tenant, `/v0/webhook_deliveries/${newTypeId('whdlv')}`)).status).toBe(404);
    expect((await get(tenant, `/v0/webhook_deliveries/${newTypeId('evt')}`)).status).toBe(404);
  });
});

describe('through a portal session narrowed to one subscription', () => {
  it("finds that subscription's deliveries only, and no other's by id", async () => {
    const tenant = await createTenant(t);
    const seen = await subscribe(tenant, 'seen');
    const unseen = await subscribe(tenant, 'unseen');
    const page = await newPage(tenant, 2);
    const opened = await t.http.post('/v0/portal_sessions').set('x-api-key', tenant.apiKey).send({ capabilities: ['deliveries:read'], expiresIn: 600, subscriptionIds: [seen] });
    const linkToken = decodeURIComponent(new URL(opened.body.url).hash.replace(/^#token=/, ''));
    const { sessionToken } = (await t.http.post('/v0/portal_sessions/exchange').send({ linkToken })).body;
    const as = (path: string) => t.http.get(path).set('authorization', `Bearer ${sessionToken}`);
    const listed = (await as(`/v0/webhook_deliveries?pageId=${page}`)).body.items as Delivery[];
    expect(listed.map((d) => d.subscriptionId)).toEqual([seen]);
    const [hidden] = (await search(tenant, `?subscriptionId=${unseen}`)).map((d) => d.id);
    expect((await as(`/v0/webhook_deliveries/${listed[0].id}`)).status).toBe(200);
    expect((await as(`/v0/webhook_deliveries/${hidden}`)).status).toBe(404);
  });
});

describe('GET /v0/webhook_subscriptions/{id}/metrics', () => {
  it('counts attempts, successes and latency by hour, every hour of the window shown', async () => {
    const tenant = await createTenant(t);
    const s = await subscribe(tenant, 'metrics');
    receiver.script = [500, 204, 204];
    await newPage(tenant, 1);
    await newPage(tenant, 1);
    const res = await get(tenant, `/v0/webhook_subscriptions/${s}/metrics`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subscriptionId: s, window: '24h', total: { attempts: 3, succeeded: 2, failed: 1, successRate: 0.6667 } });
    expect(res.body.hours).toHaveLength(24);
    expect(new Date(res.body.to).getTime() - new Date(res.body.from).getTime()).toBe(24 * 3_600_000);
    expect(res.body.hours.reduce((n: number, h: { attempts: number }) => n + h.attempts, 0)).toBe(3);
    const latency = res.body.total.latencyMs;
    expect(latency.p50).toBeLessThanOrEqual(latency.p95);
    expect(latency.p95).toBeLessThanOrEqual(latency.p99);
    expect(res.body.hours.filter((h: { attempts: number; latencyMs: unknown; successRate: unknown }) => h.attempts === 0).every((h: { latencyMs: unknown; successRate: unknown }) => h.latencyMs === null && h.successRate === null)).toBe(true);
    const week = await get(tenant, `/v0/webhook_subscriptions/${s}/metrics?window=7d`);
    expect(week.body.hours).toHaveLength(168);
    expect(week.body.total).toEqual(res.body.total);
  });

  it('refuses an unknown window and another tenant\'s subscription', async () => {
    const tenant = await createTenant(t);
    const stranger = await createTenant(t);
    const s = await subscribe(tenant, 'metrics-refused');
    const bad = await get(tenant, `/v0/webhook_subscriptions/${s}/metrics?window=30d`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'window' } });
    expect((await get(stranger, `/v0/webhook_subscriptions/${s}/metrics`)).status).toBe(404);
  });
});
