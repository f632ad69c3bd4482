// The API's measurements: maximum throughput (closed loop, wrk), latency at half of it and the
// latency curve (open loop at a constant rate, bench/processes/open-loop.c), in interleaved rounds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDrainCost } from './drain-cost.mjs';
import { BASELINES, runOrder } from './scenarios.mjs';
import { pairedRatio, round, summariseFixedRate, summariseMaximum } from './stats.mjs';
import { BASE, ROOT } from './services.mjs';

// CPU time the hypervisor gave to other guests (steal), from /proc/stat: on a shared virtual
// machine it comes and goes, and every process of the run stalls while it lasts. Each
// measurement carries the share of the machine's time stolen while it ran.
function cpuTimes() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
}

/** One measurement by bench/processes/load.mjs (its own process, on core 1 when pinned), with the CPU steal while it ran. */
export function load(services, host, spec) {
  const before = cpuTimes();
  return new Promise((resolve, reject) => {
    const child = services.node(1, join(ROOT, 'bench', 'processes', 'load.mjs'), [JSON.stringify(spec)], {}, undefined, [], spec.overallRate ? host.generatorPriority : []);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      const after = cpuTimes();
      resolve({ ...JSON.parse(out), stealPercent: round(((after.steal - before.steal) / Math.max(1, after.total - before.total)) * 100) });
    });
  });
}

export async function measureEndpoints({ services, host, options, log, scenarios, headers, apiPid }) {
  const spec = (s, extra = {}) => ({ url: s.url ?? `${BASE}${s.path}`, paths: s.paths, method: s.method, headers: s.headers ? { ...headers, ...s.headers } : headers, body: s.body, duration: options.durationSeconds, ...extra });
  const order = runOrder(scenarios);

  // Warm-up, not counted: every route once, so that the first scenario measured (baseline (a))
  // does not pay for the JIT and the connection pools that the others find warm.
  log('warming up…');
  for (const s of scenarios) await load(services, host, spec(s, { duration: options.quick ? 1 : 2 }));
  const maxRuns = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  // Baseline (b) is measured again after each endpoint, and each endpoint is compared with the
  // (b) on either side of it: the host's speed moves within a run (in one, (a) fell from 7,054 to
  // 4,006 req/s between two rounds), and a (b) measured minutes before a write compared the host
  // of two moments rather than the endpoint with the raw query (decisions.md 115).
  const rawPg = order.find((s) => s.name === BASELINES.rawPg);
  const rawPgRatios = {};
  // Each write is compared the same way with the raw write (b-w) measured right after it.
  const rawWrite = order.find((s) => s.name === BASELINES.rawWrite);
  const rawWriteRatios = {};
  const measure = async (r, s) => {
    const result = await load(services, host, spec(s));
    maxRuns[s.name].push(result);
    log(`round ${r}/${options.rounds}  ${s.name.padEnd(34)} ${String(Math.round(result.rps)).padStart(6)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  errors ${result.errors}  steal ${result.stealPercent} %`);
    return result;
  };
  for (let r = 1; r <= options.rounds; r++) {
    await services.checkpoint();
    let rawPgBefore;
    let rawWriteBefore;
    for (const s of order) {
      const result = await measure(r, s);
      if (s === rawPg) rawPgBefore = result.rps;
      if (s === rawWrite) rawWriteBefore = result.rps;
      if (!s.baseline && s.method !== 'GET' && rawWrite) {
        const rawWriteAfter = (await measure(r, rawWrite)).rps;
        (rawWriteRatios[s.name] ??= []).push(pairedRatio(result.rps, rawWriteBefore, rawWriteAfter));
        rawWriteBefore = rawWriteAfter;
      }
      if (!s.baseline && rawPg) {
        const rawPgAfter = (await measure(r, rawPg)).rps;
        (rawPgRatios[s.name] ??= []).push(pairedRatio(result.rps, rawPgBefore, rawPgAfter));
        rawPgBefore = rawPgAfter;
      }
    }
  }
  const maximum = Object.fromEntries(scenarios.map((s) => [s.name, summariseMaximum(maxRuns[s.name])]));

  log('latency at half of the maximum throughput…');
  const halfRuns = {};
  for (let r = 1; r <= options.rounds; r++) {
    await services.checkpoint();
    for (const s of order.filter((x) => !x.baseline)) {
      const rate = Math.max(1, Math.floor(maximum[s.name].rps / 2));
      const result = await load(services, host, spec(s, { overallRate: rate }));
      (halfRuns[s.name] ??= []).push(result);
      log(`round ${r}/${options.rounds}  ${s.name.padEnd(34)} at ${rate} req/s: p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  max ${result.maxMs} ms  errors ${result.errors}  steal ${result.stealPercent} %  generator: sent late p99 ${result.generator.sendLagP99Ms} / max ${result.generator.sendLagMaxMs} ms`);
    }
  }
  const half = Object.fromEntries(Object.entries(halfRuns).map(([name, runs]) => [name, summariseFixedRate(runs)]));

  const curve = [];
  const list = scenarios.find((s) => s.name.startsWith('GET /v0/brands ('));
  if (list) {
    log('latency against load for GET /v0/brands…');
    await services.checkpoint();
    for (const share of [0.25, 0.5, 0.75, 0.9]) {
      const rate = Math.floor(maximum[list.name].rps * share);
      const result = await load(services, host, spec(list, { overallRate: rate }));
      curve.push({ rate, share, p50Ms: result.p50Ms, p99Ms: result.p99Ms });
    }
  }
  // What one request costs the machine (the sizing guide's figures, docs/scaling.md): one more
  // closed-loop run of each endpoint, with CPU by process, Redis commands and PostgreSQL
  // transactions counted around it (bench/lib/drain-cost.mjs, per request instead of per delivery).
  const requestCosts = {};
  if (apiPid) {
    log('what one request costs…');
    for (const s of order.filter((x) => !x.baseline)) {
      const cost = await startDrainCost({ databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, pids: { api: apiPid } });
      const result = await load(services, host, spec(s));
      const measured = await cost.finish(Math.max(1, Math.round(result.rps * options.durationSeconds)));
      requestCosts[s.name] = {
        cpuUs: measured.cpuUsPerDelivery.api ?? 0,
        postgresCpuUs: measured.cpuUsPerDelivery.postgres ?? 0,
        redisCpuUs: measured.cpuUsPerDelivery.redis ?? 0,
        redisCommands: measured.redisCommandsPerDelivery,
        postgresTransactions: measured.postgresTransactionsPerDelivery,
        walBytes: measured.walBytesPerDelivery,
      };
      log(`  ${s.name.padEnd(34)} API ${requestCosts[s.name].cpuUs} µs, PostgreSQL ${requestCosts[s.name].postgresCpuUs} µs, Redis ${requestCosts[s.name].redisCpuUs} µs; ${requestCosts[s.name].redisCommands} Redis commands, ${requestCosts[s.name].postgresTransactions} PostgreSQL transactions, ${requestCosts[s.name].walBytes} WAL bytes`);
    }
  }
  return { maximum, half, rawPgRatios, rawWriteRatios, latencyCurve: { scenario: list?.name, points: curve }, requestCosts };
}
