import { join } from 'node:path';

// bench/lib/stats.mjs is ESM (the bench runs as plain Node); jest loads it through a native import.
const load = () => import(join(__dirname, '..', '..', '..', 'bench', 'lib', 'stats.mjs'));

describe('bench statistics', () => {
  it('takes the middle value, the upper one of an even count, whatever the order', async () => {
    const { median } = await load();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeUndefined();
  });

  it('takes quantiles by nearest rank, capped at the largest value', async () => {
    const { quantile } = await load();
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(quantile(values, 0.5)).toBe(51);
    expect(quantile(values, 0.99)).toBe(100);
    expect(quantile(values, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
  });

  it('summarises rounds by medians and sums their errors', async () => {
    const { summariseMaximum, summariseFixedRate } = await load();
    const runs = [
      { rps: 100, p50Ms: 3, p99Ms: 30, errors: 1, stealPercent: 0 },
      { rps: 300, p50Ms: 1, p99Ms: 10, errors: 0, stealPercent: 2.5 },
      { rps: 200, p50Ms: 2, p99Ms: 90, errors: 2, stealPercent: 0.1 },
    ];
    expect(summariseMaximum(runs)).toEqual({ rps: 200, p50Ms: 2, p99Ms: 30, errors: 3 });
    expect(summariseFixedRate(runs)).toEqual({ p50Ms: 2, p99Ms: 30, p99MsEachRound: [30, 10, 90], stealPercentEachRound: [0, 2.5, 0.1], errors: 3 });
  });

  it('gives each scenario its ratios to the baselines of the same run and its half load', async () => {
    const { scenarioLines } = await load();
    const scenarios = [{ name: 'a' }, { name: 'b' }, { name: 'list' }];
    const maximum = { a: { rps: 6000, p50Ms: 4, p99Ms: 9, errors: 0 }, b: { rps: 3000, p50Ms: 7, p99Ms: 20, errors: 0 }, list: { rps: 2999.6, p50Ms: 8, p99Ms: 18, errors: 1 } };
    const half = { list: { p50Ms: 1, p99Ms: 5, p99MsEachRound: [5], stealPercentEachRound: [0], errors: 0 } };
    const [, , list] = scenarioLines(scenarios, maximum, half, { bare: 'a', rawPg: 'b' });
    expect(list).toEqual({
      name: 'list', rps: 3000, p50Ms: 8, p99Ms: 18, errors: 1, ratioToBareNest: 0.5, ratioToRawPg: 1,
      halfLoad: { rps: 1499, p50Ms: 1, p99Ms: 5, p99MsEachRound: [5], stealPercentEachRound: [0], errors: 0 },
    });
    // With the floor (c) measured, each line has its ratio to it too.
    const withFloor = scenarioLines([...scenarios, { name: 'c' }], { ...maximum, c: { rps: 12000, p50Ms: 2, p99Ms: 5, errors: 0 } }, half, { bare: 'a', rawPg: 'b', floor: 'c' });
    expect(withFloor[2].ratioToFloor).toBe(0.25);
    expect(withFloor[3].ratioToFloor).toBe(1);
  });

  it('compares an endpoint with the (b) measured on either side of it, round by round, when the run paired them', async () => {
    const { pairedRatio, scenarioLines } = await load();
    // The host slowed between (b) before (4000) and (b) after (2000): against their mean, not either.
    expect(pairedRatio(2700, 4000, 2000)).toBe(0.9);
    const scenarios = [{ name: 'a' }, { name: 'b' }, { name: 'list' }];
    const maximum = { a: { rps: 6000, p50Ms: 4, p99Ms: 9, errors: 0 }, b: { rps: 3000, p50Ms: 7, p99Ms: 20, errors: 0 }, list: { rps: 1500, p50Ms: 8, p99Ms: 18, errors: 0 } };
    const [a, b, list] = scenarioLines(scenarios, maximum, {}, { bare: 'a', rawPg: 'b' }, { list: [0.9, 1.004, 0.95] });
    // The median of the rounds' paired ratios, not the ratio of the medians (0.5).
    expect(list.ratioToRawPg).toBe(0.95);
    expect(list.ratioToRawPgEachRound).toEqual([0.9, 1, 0.95]);
    expect(list.ratioToBareNest).toBe(0.25);
    // Baselines are not paired with themselves.
    expect(b.ratioToRawPg).toBe(1);
    expect(a.ratioToRawPgEachRound).toBeUndefined();
  });

  it('measures (b) last of the baselines, right before the first endpoint, and the reads before the writes', async () => {
    const { runOrder, endpointScenarios, BASELINES } = await import(join(__dirname, '..', '..', '..', 'bench', 'lib', 'scenarios.mjs'));
    const scenarios = endpointScenarios({ tenantId: 't', brandId: 'b', pageGroupId: 'g', templateId: 'x', pageId: 'p', widePageGroupId: 'w', widePageId: 'q', patchPaths: [] });
    const order = runOrder(scenarios).map((s: { name: string; method: string }) => s.name);
    expect(order.slice(0, 3)).toEqual([BASELINES.bare, BASELINES.floor, BASELINES.rawPg]);
    expect(order.indexOf('GET /v0/page_groups')).toBeLessThan(order.indexOf('POST /v0/brands'));
    expect(order).toHaveLength(scenarios.length);
  });

  it('measures (b-w) right before the first write, and compares each write with it, paired as with (b)', async () => {
    const { runOrder, endpointScenarios, BASELINES } = await import(join(__dirname, '..', '..', '..', 'bench', 'lib', 'scenarios.mjs'));
    const scenarios = endpointScenarios({ tenantId: 't', brandId: 'b', pageGroupId: 'g', templateId: 'x', pageId: 'p', widePageGroupId: 'w', widePageId: 'q', patchPaths: [] });
    const order = runOrder(scenarios) as { name: string; method: string }[];
    const firstWrite = order.findIndex((s) => s.method !== 'GET' && !s.name.startsWith('bare'));
    expect(order[firstWrite - 1].name).toBe(BASELINES.rawWrite);
    expect(order.slice(0, firstWrite - 1).every((s) => s.method === 'GET')).toBe(true);

    const { scenarioLines } = await load();
    const lines = [{ name: 'a' }, { name: 'b' }, { name: 'bw' }, { name: 'POST x' }, { name: 'list' }];
    const maximum = Object.fromEntries(lines.map((l) => [l.name, { rps: 1000, p50Ms: 1, p99Ms: 2, errors: 0 }]));
    const [, , , write, list] = scenarioLines(lines, maximum, {}, { bare: 'a', rawPg: 'b', rawWrite: 'bw' }, {}, { 'POST x': [0.7, 0.85, 0.8] });
    expect(write.ratioToRawWrite).toBe(0.8);
    expect(write.ratioToRawWriteEachRound).toEqual([0.7, 0.85, 0.8]);
    expect(list.ratioToRawWrite).toBeUndefined();
  });

  it('counts an event that never arrived as arriving at the end of the run', async () => {
    const { arrivalLatencies } = await load();
    const answered = { p1: 1000, p2: 1000, p3: 1000, p4: 1000 };
    const arrivals = { p1: 1003, p2: 1004, p3: 1005 };
    expect(arrivalLatencies(answered, arrivals, 3000)).toEqual({ p50Ms: 5, p99Ms: 2000, count: 4, missing: 1 });
  });
});
