// The endpoints a run measures, in the order, and the two baselines of the same run.

export const BASELINES = { bare: 'bare NestJS (a)', rawPg: 'bare NestJS + raw pg list (b)' };

/** The scenarios of a seeded data set (its sample ids), those whose name contains `only` besides the baselines. */
export function endpointScenarios({ brandId, pageGroupId, templateId, patchPaths }, only = '') {
  const brandBody = JSON.stringify({ name: 'Bench brand', preferredAppearance: 'dark', themeLight: { borderColor: '#e5e7eb' }, themeDark: {} });
  return [
    { name: BASELINES.bare, path: '/bench/constant', method: 'GET', baseline: true },
    { name: BASELINES.rawPg, path: '/bench/raw-brands', method: 'GET', baseline: true },
    { name: 'GET /v0/brands (20 items)', path: '/v0/brands', method: 'GET' },
    { name: 'GET /v0/brands/{id}', path: `/v0/brands/${brandId}`, method: 'GET' },
    { name: 'POST /v0/brands', path: '/v0/brands', method: 'POST', body: brandBody },
    // Round 100 brands of the tenant, as clients patch their brands: PATCHes of one brand wait for
    // each other on its row lock by design (decisions.md 48), which would measure that lock.
    { name: 'PATCH /v0/brands/{id}', path: `/v0/brands/${brandId}`, paths: patchPaths, method: 'PATCH', body: JSON.stringify({ themeDark: { borderColor: '#111111' } }) },
    { name: 'GET /v0/page_groups', path: '/v0/page_groups', method: 'GET' },
    { name: 'POST pages', path: `/v0/page_groups/${pageGroupId}/pages`, method: 'POST', body: '{}' },
    { name: 'GET utm_parameters', path: `/v0/page_groups/${pageGroupId}/utm_parameters`, method: 'GET' },
    { name: 'POST /v0/templates/{id}/duplicate', path: `/v0/templates/${templateId}/duplicate`, method: 'POST', body: '{}' },
  ].filter((s) => s.baseline || s.name.includes(only));
}

/**
 * Each round measures the reads first, then the writes: a read measured right after POST pages
 * (1,100 pages a second, each with its version and event) shared the disk and the other core with
 * the flushing of those writes. Results keep the scenarios' own order.
 */
export function runOrder(scenarios) {
  return [...scenarios.filter((s) => s.method === 'GET'), ...scenarios.filter((s) => s.method !== 'GET')];
}
