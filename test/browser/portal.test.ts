import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { eventually } from '../support/eventually';
import { launchChromium, screenshot, step } from '../support/chromium';
import { deliveryWorld } from '../support/delivery-world';
import { platform, rows } from '../support/platform';
import { createTenant, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { subscriptionBody } from '../support/builders/subscriptions';

// The webhook portal page in Debian's Chromium (issue 73, docs/portal.md), against the API and
// the worker on a database of their own, sending to a receiver on 127.0.0.1.
jest.setTimeout(60_000);
const receiver = new WebhookReceiver();
const world = deliveryWorld(receiver);
let t: TestApp;
let browser: Browser;
let api: string;

beforeAll(async () => {
  t = world.t;
  await t.app.listen(0, '127.0.0.1');
  api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

type Capability = 'deliveries:read' | 'deliveries:retry' | 'events:test' | 'subscriptions:manage' | 'secrets:rotate';

/** A session's link as the page is opened with it, on the API's own origin. */
async function portalLink(tenant: TestTenant, capabilities: Capability[], extra: object = {}): Promise<{ id: string; link: string }> {
  const opened = await t.http.post('/v0/portal_sessions').set('x-api-key', tenant.apiKey).send({ capabilities, expiresIn: 3600, ...extra });
  expect(opened.status).toBe(201);
  const url = new URL(opened.body.url);
  return { id: opened.body.id, link: `${api}/portal${url.search}${url.hash}` };
}

async function subscribe(tenant: TestTenant): Promise<string> {
  const res = await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(receiver.url));
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A page of the tenant's, and its delivery once it is `status`. */
async function deliveryOfNewPage(tenant: TestTenant, status: string): Promise<string> {
  const group = await platform(t).group(tenant.tenantId);
  expect((await t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey)).status).toBe(201);
  const found = await eventually(
    async () => (await t.http.get(`/v0/webhook_deliveries?status=${status}`).set('x-api-key', tenant.apiKey)).body.items as { id: string }[],
    (items) => items.length === 1,
  );
  return found[0].id;
}

/** A new tab that records every address it requests. */
async function newTab(): Promise<{ page: Page; requested: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 1400 });
  const requested: string[] = [];
  page.on('request', (request) => void requested.push(request.url()));

  return { page, requested };
}

const buttonTexts = (scope: Page | Frame) => scope.$$eval('button', (buttons) => buttons.map((b) => b.textContent?.trim() ?? ''));
const sessionTokenOf = (page: Page, id: string) => page.evaluate((key) => sessionStorage.getItem(key), `portal-session:${id}`);

describe('the webhook portal page', () => {
  it('walks from a link to a failed delivery, its attempts and the receiver\'s answer, and retries it', async () => {
    const tenant = await createTenant(t);
    receiver.script = Array.from({ length: 5 }, () => ({ status: 500, body: '{"error":"database unavailable"}' }));
    const subscriptionId = await subscribe(tenant);
    const failed = await deliveryOfNewPage(tenant, 'failed');
    const { link } = await portalLink(tenant, ['deliveries:retry']);
    const { page, requested } = await newTab();

    await step(page, 'portal-walk-subscriptions', async () => {
      await page.goto(link);
      await page.waitForSelector(`[data-subscription="${subscriptionId}"] [data-health="failing"]`);
      await page.waitForSelector(`[data-subscription="${subscriptionId}"] .chart canvas`);
      // The link's token left the address bar once it was exchanged.
      expect(page.url()).not.toContain('token=');
    });
    await step(page, 'portal-walk-failed-deliveries', async () => {
      await page.click(`[data-subscription="${subscriptionId}"] ::-p-text(Failed deliveries)`);
      await page.waitForSelector(`tr[data-delivery="${failed}"][data-status="failed"]`);
      expect(await page.$$eval('tr[data-delivery]', (found) => found.length)).toBe(1);
    });
    await step(page, 'portal-walk-attempts', async () => {
      await page.click(`tr[data-delivery="${failed}"] button`);
      await page.waitForSelector(`[data-detail="${failed}"] [data-attempt="5"]`);
      const excerpts = await page.$$eval(`[data-detail="${failed}"] .excerpt`, (found) => found.map((e) => e.textContent));
      expect(excerpts).toEqual(Array(5).fill('{"error":"database unavailable"}'));
      await screenshot(page, 'portal-delivery');
    });
    await step(page, 'portal-walk-retry', async () => {
      await page.click(`[data-detail="${failed}"] ::-p-text(Retry)`);
      await receiver.waitFor(6);
      expect(receiver.received[5].status).toBe(204);
      // The page opens the redelivery and shows its attempt once the worker recorded it.
      const again = await page.waitForSelector(`[data-detail]:not([data-detail="${failed}"]) [data-attempt="1"]`, { timeout: 15_000 });
      expect(await again!.evaluate((e) => e.querySelector('h4')?.textContent)).toContain('204');
      expect(await page.$eval('[data-detail] [data-status]', (e) => e.textContent)).toBe('delivered');
    });
    // Nothing came from, or went to, anywhere but the API's own origin (data: URLs are the
    // browser's own, drawn without a request).
    expect(requested.filter((url) => !url.startsWith(`${api}/`) && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });

  it('shows a read-only session no action, and the API refuses the same actions sent with its token', async () => {
    const tenant = await createTenant(t);
    const subscriptionId = await subscribe(tenant);
    const delivered = await deliveryOfNewPage(tenant, 'delivered');
    const { id, link } = await portalLink(tenant, ['deliveries:read']);
    const { page } = await newTab();
    await step(page, 'portal-read-only', async () => {
      await page.goto(link);
      await page.waitForSelector(`[data-subscription="${subscriptionId}"]`);
      expect(await page.$eval('.session', (e) => e.textContent)).toContain('Read only');
      await page.click('[data-subscription] ::-p-text(All deliveries)');
      await (await page.waitForSelector(`tr[data-delivery="${delivered}"] button`))!.click();
      await page.waitForSelector(`[data-detail="${delivered}"] [data-attempt="1"]`);
      const shown = await buttonTexts(page);
      for (const action of ['Retry', 'Send test event', 'Rotate secret', 'Edit', 'Recover']) expect(shown).not.toContain(action);
    });
    const token = await sessionTokenOf(page, id);
    const as = <T extends { set: (name: string, value: string) => T }>(request: T) => request.set('authorization', `Bearer ${token}`);
    const base = `/v0/webhook_subscriptions/${subscriptionId}`;
    const refused = [
      await as(t.http.post(`${base}/deliveries/${delivered}/redeliver`)),
      await as(t.http.post(`${base}/test`)).send({}),
      await as(t.http.post(`${base}/rotate_secret`)).send({}),
      await as(t.http.patch(base)).send({ active: false }),
      await as(t.http.post(`${base}/recover`)).send({ since: new Date(Date.now() - 60_000).toISOString() }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect((await as(t.http.get(`/v0/webhook_deliveries/${delivered}`))).status).toBe(200);
    await page.close();
  });

  it('says when a link was used, a session was closed or has expired, and opens nothing of another tenant', async () => {
    const tenant = await createTenant(t);
    const other = await createTenant(t);
    await subscribe(tenant);
    const foreignSubscription = await subscribe(other);
    const { id, link } = await portalLink(tenant, ['deliveries:read']);
    const first = await newTab();
    // Each step waits for the page's last request (a subscription's chart): the session is ended
    // only then, so that it is the next click that meets the end.
    await step(first.page, 'portal-ended-open', async () => {
      await first.page.goto(link);
      await first.page.waitForSelector('[data-subscription] .chart canvas');
    });
    const second = await newTab();
    await step(second.page, 'portal-ended-used', async () => {
      await second.page.goto(link);
      await second.page.waitForSelector('[data-ended="used"]');
    });
    // Another tenant's subscription is not found with this session's token.
    const token = await sessionTokenOf(first.page, id);
    expect((await t.http.get(`/v0/webhook_subscriptions/${foreignSubscription}`).set('authorization', `Bearer ${token}`)).status).toBe(404);
    expect((await t.http.get(`/v0/webhook_deliveries?subscriptionId=${foreignSubscription}`).set('authorization', `Bearer ${token}`)).body.items).toEqual([]);
    await step(first.page, 'portal-ended-revoked', async () => {
      // A tab in the background draws no frames, and a click waits for one.
      await first.page.bringToFront();
      expect((await t.http.delete(`/v0/portal_sessions/${id}`).set('x-api-key', tenant.apiKey)).status).toBe(200);
      await first.page.click('nav ::-p-text(Deliveries)');
      await first.page.waitForSelector('[data-ended="revoked"]');
    });
    const expiring = await portalLink(tenant, ['deliveries:read']);
    await step(second.page, 'portal-ended-expired', async () => {
      await second.page.bringToFront();
      await second.page.goto(expiring.link);
      await second.page.waitForSelector('[data-subscription] .chart canvas');
      await rows(t, "UPDATE portal_sessions SET created_at = now() - interval '11 minutes', expires_at = now() - interval '1 minute' WHERE id = ?", [expiring.id]);
      await second.page.click('nav ::-p-text(Deliveries)');
      await second.page.waitForSelector('[data-ended="expired"]');
    });
    // A link whose address names another tenant's session opens nothing.
    const foreign = await portalLink(other, ['deliveries:read']);
    const mine = await portalLink(tenant, ['deliveries:read']);
    const tampered = new URL(mine.link);
    tampered.searchParams.set('session', foreign.id);
    await step(second.page, 'portal-ended-unknown', async () => {
      await second.page.goto(tampered.toString());
      await second.page.waitForSelector('[data-ended="unknown"]');
    });
    await first.page.close();
    await second.page.close();
  });

  it('works in an iframe of an allowed origin, and the browser refuses to frame it anywhere else', async () => {
    const tenant = await createTenant(t);
    const subscriptionId = await subscribe(tenant);
    const hosts = await Promise.all([framingHost(), framingHost()]);
    try {
      const [allowed, elsewhere] = hosts;
      const { link } = await portalLink(tenant, ['deliveries:read'], { allowedOrigins: [allowed.origin] });
      const { page } = await newTab();
      await step(page, 'portal-iframe-allowed', async () => {
        allowed.frame = link;
        await page.goto(`${allowed.origin}/`);
        const frame = await (await page.waitForSelector('iframe'))!.contentFrame();
        await frame!.waitForSelector(`[data-subscription="${subscriptionId}"]`);
      });
      await step(page, 'portal-iframe-refused', async () => {
        const again = await portalLink(tenant, ['deliveries:read'], { allowedOrigins: [allowed.origin] });
        elsewhere.frame = again.link;
        // Chromium says so on the console of the page that tried to frame it.
        const refused = new Promise<string>((resolve) => page.on('console', (message) => message.text().includes('frame-ancestors') && resolve(message.text())));
        const blocked = new Promise<string | undefined>((resolve) => page.on('requestfailed', (request) => request.url().startsWith(`${api}/portal`) && resolve(request.failure()?.errorText)));
        await page.goto(`${elsewhere.origin}/`);
        expect(await refused).toContain(`frame-ancestors ${allowed.origin}`);
        expect(await blocked).toBe('net::ERR_BLOCKED_BY_RESPONSE');
        expect(await page.$$eval('iframe', (frames) => frames.length)).toBe(1);
        // The session was never opened: the framed page did not run.
        const listed = await t.http.get(`/v0/portal_sessions/${again.id}`).set('x-api-key', tenant.apiKey);
        expect(listed.body.linkUsed).toBe(false);
      });
      await page.close();
    } finally {
      // Chromium keeps its connections open: close them, or close() waits for them.
      for (const h of hosts) h.server.closeAllConnections();
      await Promise.all(hosts.map((h) => new Promise((done) => h.server.close(done))));
    }
  });

  it('has no serious or critical accessibility violation (axe-core)', async () => {
    const tenant = await createTenant(t);
    await subscribe(tenant);
    const delivered = await deliveryOfNewPage(tenant, 'delivered');
    const { link } = await portalLink(tenant, ['deliveries:retry', 'events:test', 'subscriptions:manage', 'secrets:rotate']);
    const { page } = await newTab();
    // axe runs as an injected script, which the page's policy (rightly) refuses: this tab skips it.
    await page.setBypassCSP(true);
    const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const violations = async () => {
      await page.addScriptTag({ content: axe });
      return page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
      });
    };
    await step(page, 'portal-axe-subscriptions', async () => {
      await page.goto(link);
      await page.waitForSelector('[data-subscription] .chart canvas');
      await page.click('[data-subscription] ::-p-text(Edit)');
      expect(await violations()).toEqual([]);
      await screenshot(page, 'portal-subscriptions');
    });
    await step(page, 'portal-axe-deliveries', async () => {
      await page.click('nav ::-p-text(Deliveries)');
      await (await page.waitForSelector(`tr[data-delivery="${delivered}"] button`))!.click();
      await page.waitForSelector(`[data-detail="${delivered}"] [data-attempt="1"]`);
      expect(await violations()).toEqual([]);
    });
    await step(page, 'portal-axe-catalog', async () => {
      await page.click('nav ::-p-text(Event catalog)');
      await page.waitForSelector('#kind-page\\.version\\.created');
      expect(await violations()).toEqual([]);
    });
    await page.close();
  });
});

/** A page on another loopback origin that frames whatever `frame` is set to. */
async function framingHost(): Promise<{ origin: string; server: Server; frame: string }> {
  const host = { origin: '', frame: 'about:blank', server: undefined as unknown as Server };
  host.server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Host</title><iframe title="Webhooks" width="1100" height="1200" src="${host.frame}"></iframe></html>`);
  });
  await new Promise<void>((done) => host.server.listen(0, '127.0.0.1', done));
  host.origin = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
  return host;
}
