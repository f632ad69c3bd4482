import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { brandBody } from '../support/builders/request-bodies';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { launchChromium, SCREENSHOTS, step as browserStep } from '../support/chromium';

// Issue 32: Swagger UI is the maintainers' way into the API, so a real browser opens it in every
// run. Debian's chromium (.ci/run installs it), driven by puppeteer-core; every host but loopback
// resolves to nothing, so the page can reach no one else even if an asset asked to.
const BRAND_NAME = 'Browser-tested Brand';
const EVENT_KINDS = [
  'brand.created',
  'brand.updated',
  'page.version.created',
  'webhook.test',
  'webhook_subscription.disabled',
  'webhook_subscription.failing',
  'webhook_subscription.recovered',
];

let t: TestApp;
let tenant: TestTenant;
let browser: Browser;
let page: Page;
let docsUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t);
  const created = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody({ name: BRAND_NAME }));
  expect(created.status).toBe(201);
  await t.app.listen(0, '127.0.0.1');
  docsUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/docs`;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1800 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Runs one browser step; on failure saves a screenshot under test-results/ and names it in the error. */
const step = <T>(name: string, run: () => Promise<T>): Promise<T> => browserStep(page, `swagger-ui-${name}`, run);

describe('Swagger UI at /docs in Chromium', () => {
  it('authorizes with a key, tries GET /v0/brands and shows 200 with the brand; lists every webhook event', async () => {
    await step('open', async () => {
      const response = await page.goto(docsUrl, { waitUntil: 'networkidle0' });
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.opblock-summary-path[data-path="/v0/brands"]');
    });

    await step('authorize', async () => {
      await page.click('.auth-wrapper .authorize');
      await page.waitForSelector('.modal-ux input[type="text"]');
      await page.type('.modal-ux input[type="text"]', tenant.apiKey);
      await page.click('.modal-ux .auth-btn-wrapper .authorize');
      await page.waitForSelector('.modal-ux .auth-btn-wrapper .btn-done');
      await page.click('.modal-ux .auth-btn-wrapper .btn-done');
      await page.waitForSelector('.modal-ux', { hidden: true });
    });

    const operation = '.opblock-get:has(.opblock-summary-path[data-path="/v0/brands"])';
    await step('try-it-out', async () => {
      await page.click(`${operation} .opblock-summary-control`);
      await page.waitForSelector(`${operation} .try-out__btn`);
      await page.click(`${operation} .try-out__btn`);
      await page.waitForSelector(`${operation} .execute`);
      await page.click(`${operation} .execute`);
      await page.waitForSelector(`${operation} .live-responses-table .response-col_status`);
    });

    const answer = await step('read-answer', () =>
      page.$eval(`${operation} .live-responses-table`, (table) => ({
        status: table.querySelector('tr.response .response-col_status')?.textContent?.trim(),
        body: table.querySelector('tr.response .response-col_description')?.textContent ?? '',
      })),
    );
    await step('check-answer', async () => {
      expect(answer.status).toBe('200');
      expect(answer.body).toContain(BRAND_NAME);
    });

    await step('webhooks', async () => {
      const listed = await page.$$eval('.webhooks .opblock-summary-path', (paths) => paths.map((path) => path.getAttribute('data-path')));
      expect([...listed].sort()).toEqual(EVENT_KINDS);
      const emptyTags = await page.$$eval('.opblock-tag-section', (sections) =>
        sections.filter((section) => section.querySelectorAll('.opblock').length === 0).map((section) => section.querySelector('.opblock-tag')?.textContent),
      );
      expect(emptyTags).toEqual([]);
    });
    // Issue 46: the conditional headers and the 304, 412 and 403 answers are shown where they apply.
    for (const [method, headerName, statuses] of [
      ['get', 'If-None-Match', ['200', '304', '403']],
      ['patch', 'If-Match', ['200', '403', '412']],
    ] as const) {
      const one = `.opblock-${method}:has(.opblock-summary-path[data-path="/v0/brands/{brand_id}"])`;
      await step(`conditional-${method}`, async () => {
        await page.click(`${one} .opblock-summary-control`);
        await page.waitForSelector(`${one} .parameters`);
        const parameters = await page.$$eval(`${one} .parameters .parameter__name`, (cells) => cells.map((cell) => cell.textContent?.replace(/\*/g, '').trim()));
        expect(parameters).toContain(headerName);
        const shown = await page.$$eval(`${one} .responses-table .response-col_status`, (cells) => cells.map((cell) => cell.textContent?.trim()));
        for (const status of statuses) expect(shown).toContain(status);
      });
    }
    // The page as the run left it, for a person to look at (test-results/ is not tracked).
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'swagger-ui.png'), fullPage: true });
  }, 60_000);
});
