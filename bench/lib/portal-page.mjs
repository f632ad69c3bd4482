// The portal page in Chromium against the bench's API (docs/portal.md): for each run a new
// session (a link opens the page once), the time from opening the link to the subscriptions shown,
// and from pressing "Deliveries" to the first delivery rendered: the delivery search over the
// sample tenant's seeded history (1,000,000 deliveries in the full seed) and the page's drawing.
import { existsSync } from 'node:fs';
import { quantile } from './stats.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function benchPortalPage({ base, headers, runs = 15, log }) {
  if (!existsSync(CHROMIUM)) {
    log(`portal page: no Chromium at ${CHROMIUM} (bash scripts/ensure-chromium.sh); not measured`);
    return null;
  }
  const { launch } = await import('puppeteer-core');
  const browser = await launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  const opened = [];
  const listed = [];
  try {
    for (let run = 0; run < runs; run++) {
      const response = await fetch(`${base}/v0/portal_sessions`, { method: 'POST', headers, body: JSON.stringify({ capabilities: ['deliveries:read'], expiresIn: 600 }) });
      if (response.status !== 201) throw new Error(`portal session: ${response.status} ${await response.text()}`);
      const url = new URL((await response.json()).url);
      const page = await browser.newPage();
      await page.setViewport({ width: 1200, height: 900 });
      const started = performance.now();
      await page.goto(`${base}/portal${url.search}${url.hash}`);
      await page.waitForSelector('[data-subscription], main p');
      const shown = performance.now();
      await page.click('nav ::-p-text(Deliveries)');
      await page.waitForSelector('tr[data-delivery]');
      const rendered = performance.now();
      opened.push(shown - started);
      listed.push(rendered - shown);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const figures = (values) => ({ p50Ms: Math.round(quantile(values, 0.5)), p95Ms: Math.round(quantile(values, 0.95)), maxMs: Math.round(Math.max(...values)) });
  const result = { runs, linkToSubscriptions: figures(opened), deliveriesTabToFirstRow: figures(listed) };
  log(`portal page, ${runs} sessions: link → subscriptions p50 ${result.linkToSubscriptions.p50Ms} ms, p95 ${result.linkToSubscriptions.p95Ms} ms; Deliveries → first row p50 ${result.deliveriesTabToFirstRow.p50Ms} ms, p95 ${result.deliveriesTabToFirstRow.p95Ms} ms`);
  return result;
}
