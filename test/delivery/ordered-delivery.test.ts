import { eventually } from '../support/eventually';
import { platform, rows } from '../support/platform';
import { createTenant, TestApp, TestTenant } from '../support/test-app';
import { firstSuccessesByPage, WebhookReceiver } from '../support/webhook-receiver';
import { deliveryWorld } from '../support/delivery-world';

const receiver = new WebhookReceiver();
const world = deliveryWorld(receiver);
let t: TestApp;
beforeAll(() => {
  t = world.t;
});

async function subscribe(tenant: TestTenant, path: string, ordering?: 'none' | 'page'): Promise<string> {
  const res = await t.http
    .post('/v0/webhook_subscriptions')
    .set('x-api-key', tenant.apiKey)
    .send({ url: `${receiver.url}/${path}`, events: ['page.version.created'], ...(ordering && { ordering }) });
  expect(res.status).toBe(201);
  expect(res.body.ordering).toBe(ordering ?? 'none');
  return res.body.id;
}

/** A page (its version 1) and `versions - 1` more versions, one after the other. */
async function pageWithVersions(tenant: TestTenant, pageGroupId: string, versions: number): Promise<string> {
  const page = await t.http.post(`/v0/page_groups/${pageGroupId}/pages`).set('x-api-key', tenant.apiKey).expect(201);
  for (let v = 2; v <= versions; v++) {
    await t.http.post(`/v0/page_groups/${pageGroupId}/pages/${page.body.pageId}/versions`).set('x-api-key', tenant.apiKey).send({}).expect(201);
  }
  return page.body.pageId;
}

/** For each page, its versions in the order the receiver first answered each with a success, at `path`. */
const firstSuccesses = (path: string): Map<string, number[]> =>
  new Map([...firstSuccessesByPage(receiver.received.filter((d) => d.path.endsWith(`/${path}`)))].map(([page, list]) => [page, list.map((r) => r.body.data.version as number)]));

const ascending = (versions: number[]) => versions.every((v, i) => i === 0 || versions[i - 1] < v);

describe('ordered delivery per page', () => {
  it('delivers each page\'s 20 versions in order to an ordered subscription through random failures and slow answers; an unordered one gets some out of order', async () => {
    const tenant = await createTenant(t);
    await subscribe(tenant, 'ordered', 'page');
    await subscribe(tenant, 'unordered');
    // 20 % of first answers fail (per subscription and event), every answer takes 0-200 ms.
    const answered = new Set<string>();
    receiver.respond = ({ path, body }) => {
      const first = !answered.has(`${path} ${body.id}`);
      answered.add(`${path} ${body.id}`);
      return { status: first && Math.random() < 0.2 ? 500 : 204, delayMs: Math.floor(Math.random() * 200) };
    };
    const group = await platform(t).group(tenant.tenantId);
    const pages = await Promise.all(Array.from({ length: 5 }, () => pageWithVersions(tenant, group.pageGroupId, 20)));

    const all = (path: string) => [...firstSuccesses(path).values()].reduce((n, versions) => n + versions.length, 0);
    await receiver.waitUntil(() => all('ordered') === 100 && all('unordered') === 100);

    const ordered = firstSuccesses('ordered');
    const unordered = firstSuccesses('unordered');
    for (const page of pages) {
      // Nothing lost, each version once among first successes, and in version order.
      expect(ordered.get(page)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect([...unordered.get(page)!].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
    // The same events without ordering: at least one page's versions came out of order (the test can fail).
    expect(pages.some((page) => !ascending(unordered.get(page)!))).toBe(true);
    // Every ordered delivery ended delivered; none is left waiting.
    const statuses = await eventually(
      () => rows<{ status: string; n: number }>(t, "SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = ? AND order_key IS NOT NULL GROUP BY status", [tenant.tenantId]),
      (r) => r.length === 1,
    );
    expect(statuses).toEqual([{ status: 'delivered', n: 100 }]);
  });
});
