// `npm run bench:ab -- --before <dir>`: the API's endpoints of this build beside another build's, in
// the same run. It answers "is every endpoint within x % of its figure before this change" on a
// noisy host, where two runs minutes apart differ by more than the change being judged, and where
// a ratio to a baseline moves when the baseline's own path changes.
//   --before DIR     the other build (required; see bench/lib/builds.mjs)
//   --rounds N       rounds (default 5: an odd count, a true median)
//   --duration S     seconds per measurement (default 5)
//   --only TEXT      only the scenarios whose name contains TEXT
//   --past-days N    a build that keeps history by day gets N days before today (default 30)
//   --json           print one JSON object on the last line of stdout
// Each build gets its own database, migrated and seeded by its own CLI at the same sizes (those of
// `npm run bench -- --quick`), and its own API process; both run throughout. Autovacuum is on for
// the run, as on every production server (restored afterwards): without its analyses, a plan the
// API made while a table was nearly empty (a sequential scan) is kept while the table grows, and a
// scenario that grows its table (duplicate: 20,000 copies) halves its own speed as it runs. Each scenario is
// measured on one build and at once on the other (closed loop, wrk, 32 connections), the order
// alternating by round (ABBA), so that a pair shares the host's moment; per scenario the median
// over rounds of this build's throughput ÷ the other's, and of what a request cost: the API
// process's CPU and PostgreSQL's (all its processes), from /proc around each measurement. On a
// shared host whose speed moves by a third within seconds, the cost is the steadier figure: a
// slower moment makes fewer requests, not dearer ones. The API's CPU is also given for V8's helper
// threads alone (the collector's; a CPU profile, which samples the main thread, does not see them).
// Scenarios are `npm run bench`'s endpoints
// (bench/lib/scenarios.mjs) that both builds serve.
import { mkdirSync, openSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildEnv, pastDaysOf, processes, seedBuild, untilReady } from './lib/builds.mjs';
import { cpuSecondsBetween, helperSecondsBetween, snapshot, threadTicks } from './lib/cpu-share.mjs';
import { recreateDatabase } from './lib/database.mjs';
import { hostChanges } from './lib/host.mjs';
import { missingTools, runWrk } from './lib/generators.mjs';
import { endpointScenarios } from './lib/scenarios.mjs';
import { ROOT } from './lib/services.mjs';
import { median, round } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const BEFORE = flag('before', undefined);
const ROUNDS = Number(flag('rounds', '5'));
const DURATION = Number(flag('duration', '5'));
const ONLY = flag('only', '');
const PAST_DAYS = Number(flag('past-days', '30'));
const SIZES = ['--tenants', '10', '--brands', '10000', '--page-groups', '100', '--sessions', '100000', '--hot-group-share', '1', '--wide-utm-sessions', '100000'];
const log = (line) => process.stderr.write(`${line}\n`);

if (!BEFORE || !existsSync(join(BEFORE, 'dist', 'main.js')) || !(ROUNDS >= 1) || !(DURATION >= 1)) {
  log('usage: npm run bench:ab -- --before <dir holding another build: dist/main.js> [--rounds N] [--duration S] [--only TEXT] [--past-days N] [--json]');
  process.exit(2);
}
const missing = missingTools();
if (missing.length > 0) {
  log(`missing: ${missing.join('; ')}`);
  process.exit(2);
}

const { start, stopAll } = processes();
const host = hostChanges({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', hostChanges: { pin: false, autovacuum: true } }, log);
process.once('SIGINT', () => {
  stopAll();
  host.restore();
  process.exit(130);
});

/** One build: its database and seed, its API process running, and its scenarios by name. */
async function prepare(name, root, port, redisDb) {
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/landing_api_bench_ab_${name}`;
  await recreateDatabase(databaseUrl);
  const env = buildEnv({ DATABASE_URL: databaseUrl, REDIS_URL: `redis://127.0.0.1:6379/${redisDb}`, QUEUE_PREFIX: `{ab-${name}}`, PORT: String(port), SERVICE_ROLE: 'api' });
  log(`seeding ${name} (${root})…`);
  const sample = seedBuild(root, env, SIZES, name);
  const days = await pastDaysOf(root, databaseUrl, PAST_DAYS);
  const logs = join(ROOT, 'bench', 'results', `ab-${name}-api.log`);
  const api = start(root, 'dist/main.js', env, ['ignore', openSync(logs, 'w'), 'inherit']);
  const base = `http://127.0.0.1:${port}`;
  await untilReady(base, `the API of ${name} (${logs})`);
  const headers = { 'x-api-key': sample.apiKey, 'content-type': 'application/json' };
  // As `npm run bench` does (run.mjs): PATCHes round the tenant's other brands, the ETag is the sample brand's.
  const brands = await (await fetch(`${base}/v0/brands?limit=100`, { headers })).json();
  const brandEtag = (await fetch(`${base}/v0/brands/${sample.brandId}`, { headers })).headers.get('etag');
  const patchPaths = brands.items.filter((b) => b.brandId !== sample.brandId).map((b) => `/v0/brands/${b.brandId}`);
  const scenarios = endpointScenarios({ ...sample, brandEtag, patchPaths }, ONLY).filter((s) => !s.baseline);
  const spec = (s, duration) => ({ url: `${base}${s.path}`, paths: s.paths, method: s.method, headers: s.headers ? { ...headers, ...s.headers } : headers, body: s.body, duration });
  return { name, root, days, apiPid: api.pid, specs: new Map(scenarios.map((s) => [s.name, (duration) => spec(s, duration)])), rps: {}, costs: {}, helpers: {} };
}

/** One closed-loop measurement of a build, with what each request cost the API and PostgreSQL in CPU µs. */
function measure(build, name, duration) {
  const before = snapshot();
  const threadsBefore = threadTicks(build.apiPid);
  const result = runWrk(build.specs.get(name)(duration));
  const helpers = helperSecondsBetween(threadsBefore, threadTicks(build.apiPid));
  let api = 0;
  let postgres = 0;
  for (const [group, seconds] of cpuSecondsBetween(before, snapshot())) {
    if (group.endsWith(`(pid ${build.apiPid})`)) api += seconds;
    else if (group.startsWith('postgres')) postgres += seconds;
  }
  const perRequest = (seconds) => (seconds * 1e6) / Math.max(1, result.requests);
  return { ...result, apiUs: perRequest(api), helperUs: perRequest(helpers), postgresUs: perRequest(postgres) };
}

async function main() {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  await host.autovacuum();
  const builds = [await prepare('this', ROOT, 3937, 13), await prepare('before', resolve(BEFORE), 3938, 14)];
  const names = [...builds[0].specs.keys()].filter((name) => builds[1].specs.has(name));
  log(`${names.length} scenarios, ${ROUNDS} rounds of ${DURATION} s (this build: ${builds[0].days || 'no'} days; before: ${resolve(BEFORE)}, ${builds[1].days || 'no'} days)`);
  log('warming up…');
  for (const name of names) for (const build of builds) runWrk(build.specs.get(name)(2));
  const ratios = Object.fromEntries(names.map((name) => [name, []]));
  const costRatios = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? builds : [...builds].reverse();
    for (const name of names) {
      const pair = {};
      for (const build of order) {
        const result = measure(build, name, DURATION);
        if (result.errors > 0) throw new Error(`${name} on ${build.name}: ${result.errors} errors`);
        pair[build.name] = result;
        (build.rps[name] ??= []).push(result.rps);
        (build.costs[name] ??= []).push(result.apiUs + result.postgresUs);
        (build.helpers[name] ??= []).push(result.helperUs);
      }
      ratios[name].push(pair.this.rps / pair.before.rps);
      costRatios[name].push((pair.this.apiUs + pair.this.postgresUs) / (pair.before.apiUs + pair.before.postgresUs));
      const cost = (m) => `${Math.round(m.apiUs)} (V8 helpers ${Math.round(m.helperUs)}) + ${Math.round(m.postgresUs)} µs`;
      log(`  round ${r + 1} ${name.padEnd(44)} this ${String(Math.round(pair.this.rps)).padStart(6)}  before ${String(Math.round(pair.before.rps)).padStart(6)} req/s  ${signed(pair.this.rps / pair.before.rps)};  API + PostgreSQL CPU a request: this ${cost(pair.this)}, before ${cost(pair.before)}`);
    }
  }
  const rows = names.map((name) => ({
    name,
    thisRps: Math.round(median(builds[0].rps[name])),
    beforeRps: Math.round(median(builds[1].rps[name])),
    ratio: round(median(ratios[name]), 3),
    ratios: ratios[name].map((x) => round(x, 3)),
    thisCpuUs: Math.round(median(builds[0].costs[name])),
    beforeCpuUs: Math.round(median(builds[1].costs[name])),
    costRatio: round(median(costRatios[name]), 3),
    thisHelperUs: Math.round(median(builds[0].helpers[name])),
    beforeHelperUs: Math.round(median(builds[1].helpers[name])),
  }));
  log(`\n| scenario | req/s: this build | before | this ÷ before (median of ${ROUNDS} pairs) | each pair | CPU µs a request (API + PostgreSQL): this | before | this ÷ before | of which V8's helper threads: this | before |\n|---|---|---|---|---|---|---|---|---|---|`);
  for (const row of rows) log(`| ${row.name} | ${row.thisRps} | ${row.beforeRps} | ${row.ratio} (${signed(row.ratio)}) | ${row.ratios.join(', ')} | ${row.thisCpuUs} | ${row.beforeCpuUs} | ${row.costRatio} (${signed(row.costRatio)}) | ${row.thisHelperUs} | ${row.beforeHelperUs} |`);
  const result = { date: new Date().toISOString(), before: resolve(BEFORE), rounds: ROUNDS, durationSeconds: DURATION, pastDays: builds.map((b) => b.days), scenarios: rows };
  // Only a run of every endpoint is kept as the record; a partial one goes to bench/data/.
  const file = ONLY === '' ? join(ROOT, 'bench', 'results', 'ab-latest.json') : join(ROOT, 'bench', 'data', 'ab-last-partial.json');
  mkdirSync(join(ROOT, 'bench', 'data'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
}

function signed(ratio) {
  const percent = (ratio - 1) * 100;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`;
}

main().then(
  () => (stopAll(), host.restore(), process.exit(0)),
  (error) => {
    log(error.stack ?? String(error));
    stopAll();
    host.restore();
    process.exit(1);
  },
);
