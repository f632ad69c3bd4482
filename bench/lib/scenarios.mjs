// The endpoints a run measures, in the order, and the baselines of the same run.
import { FLOOR_PORT } from './services.mjs';

// The API process serves baseline (c) there.
const FLOOR_BASE = `http://127.0.0.1:${FLOOR_PORT}`;

export const BASELINES = { bare: 'bare NestJS (a)', rawPg: 'bare NestJS + raw pg list (b)', rawWrite: 'bare NestJS + raw pg write (b-w)', floor: 'bare node:http + raw pg list (c)' };

/** The scenarios of a seeded data set (its sample ids), those whose name contains `only` besides the baselines. */
export function endpointScenarios({ tenantId, brandId, brandEtag, pageGroupId, templateId, pageId, widePageGroupId, widePageId, deliverySubscriptionId, patchPaths }, only = '', now = new Date()) {
  const brandBody = JSON.stringify({ name: 'Bench brand', preferredAppearance: 'dark', themeLight: { borderColor: '#e5e7eb' }, themeDark: {} });
  return [
    { name: BASELINES.bare, path: '/bench/constant', method: 'GET', baseline: true },
    { name: BASELINES.rawPg, path: '/bench/raw-brands', method: 'GET', baseline: true },
    // A write commits and flushes WAL, which (b) does not: the writes are compared with this too
    // (interfaces/bench/raw-brand-write.ts), the brand's row and its outbox row in one statement.
    { name: BASELINES.rawWrite, path: '/bench/raw-brand-write', method: 'POST', body: brandBody, baseline: true },
    // The API process's bare node:http server on the next port (interfaces/bench/bare-floor.server.ts).
    ...(tenantId ? [{ name: BASELINES.floor, url: `${FLOOR_BASE}/floor/brands?tenant=${tenantId}`, method: 'GET', baseline: true }] : []),
    { name: 'GET /v0/brands (20 items)', path: '/v0/brands', method: 'GET' },
    { name: 'GET /v0/brands/{id}', path: `/v0/brands/${brandId}`, method: 'GET' },
    // The same brand, its ETag held by the client: 304 with no body, not counted (decisions.md 140).
    // The PATCH scenario leaves this brand alone (run.mjs), so the tag stays current.
    ...(brandEtag ? [{ name: 'GET /v0/brands/{id} with If-None-Match', path: `/v0/brands/${brandId}`, method: 'GET', headers: { 'If-None-Match': brandEtag } }] : []),
    { name: 'POST /v0/brands', path: '/v0/brands', method: 'POST', body: brandBody },
    // Round 100 brands of the tenant, as clients patch their brands: PATCHes of one brand wait for
    // each other on its row lock by design (decisions.md 48), which would measure that lock.
    { name: 'PATCH /v0/brands/{id}', path: `/v0/brands/${brandId}`, paths: patchPaths, method: 'PATCH', body: JSON.stringify({ themeDark: { borderColor: '#111111' } }) },
    { name: 'GET /v0/page_groups', path: '/v0/page_groups', method: 'GET' },
    { name: 'POST pages', path: `/v0/page_groups/${pageGroupId}/pages`, method: 'POST', body: '{}' },
    { name: 'GET utm_parameters', path: `/v0/page_groups/${pageGroupId}/utm_parameters`, method: 'GET' },
    { name: 'POST /v0/templates/{id}/duplicate', path: `/v0/templates/${templateId}/duplicate`, method: 'POST', body: '{}' },
    // The seed's hot page: a million sessions spread over the last 90 days; the longest range by day.
    { name: 'GET page stats (90 days)', path: `/v0/page_groups/${pageGroupId}/pages/${pageId}/stats?${statsRange(now)}`, method: 'GET' },
    // A page whose visitors gave it 100,000 distinct utm_content values (one session each) over the
    // same 90 days: what the statistics' cost must not grow with (docs/decisions.md 86).
    ...(widePageId
      ? [{ name: 'GET page stats (100,000 utm_content values)', path: `/v0/page_groups/${widePageGroupId}/pages/${widePageId}/stats?${statsRange(now)}`, method: 'GET' }]
      : []),
    // The sample tenant's webhook history: 1,000,000 final deliveries over 24 hours, 1.5 % failed
    // (bench/lib/options.mjs, seed-deliveries.ts): the delivery search as the portal's log uses it.
    ...(deliverySubscriptionId
      ? [
          { name: 'GET /v0/webhook_deliveries (newest 20)', path: '/v0/webhook_deliveries', method: 'GET' },
          { name: 'GET /v0/webhook_deliveries?status=failed', path: '/v0/webhook_deliveries?status=failed', method: 'GET' },
          { name: 'GET /v0/webhook_deliveries?pageId', path: `/v0/webhook_deliveries?pageId=${pageId}`, method: 'GET' },
          { name: 'GET /v0/webhook_deliveries?subscriptionId&status=failed', path: `/v0/webhook_deliveries?subscriptionId=${deliverySubscriptionId}&status=failed`, method: 'GET' },
        ]
      : []),
  ].filter((s) => s.baseline || s.name.includes(only));
}

/**
 * Each round measures the reads first, then the writes: a read measured right after POST pages
 * (1,100 pages a second, each with its version and event) shared the disk and the other core with
 * the flushing of those writes. Baseline (b) is the last baseline, right before the first
 * endpoint, since each endpoint is compared with the (b) measured on either side of it
 * (measure.mjs); (b-w) likewise comes right before the first write. Results keep the scenarios'
 * own order.
 */
export function runOrder(scenarios) {
  const rawPgLast = (s) => (s.name === BASELINES.rawPg ? 1 : 0);
  const rawWrite = scenarios.filter((s) => s.name === BASELINES.rawWrite);
  const baselines = scenarios.filter((s) => s.baseline && s.name !== BASELINES.rawWrite).sort((x, y) => rawPgLast(x) - rawPgLast(y));
  const endpoints = scenarios.filter((s) => !s.baseline);
  return [...baselines, ...endpoints.filter((s) => s.method === 'GET'), ...rawWrite, ...endpoints.filter((s) => s.method !== 'GET')];
}

/** The last 90 whole UTC days, today included: `from` and `to` of the statistics scenario. */
export function statsRange(now) {
  const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  return `from=${day(to - 90 * 86_400_000)}&to=${day(to)}`;
}
