// `npm run bench`: seeds a realistic data set, starts the production build, and measures every
// endpoint against two baselines measured in the same run, then webhooks end to end and memory.
// Server and load generator are pinned to different cores (taskset). Options:
//   --quick          small data set and short runs (a smoke test of the harness, ~1 min)
//   --duration S     seconds per measurement (default 5)
//   --rounds N       interleaved rounds (default 3)
//   --reuse          keep the data set of the previous run of the same size (bench/data/)
//   --only TEXT      only the scenarios whose name contains TEXT (the baselines always run)
//   --no-webhooks    skip the webhook measurements
//   --backlog N      events in the webhook drain (default 20,000; 2,000 with --quick)
//   --autocannon     drive maximum throughput with autocannon even where wrk is installed
//   --report         only rewrite docs/performance.md and its chart from bench/results/latest.json
// Last, bench/utm-at-scale.mjs records sessions into a group growing to 50,000 UTM values.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { recreateDatabase } from './database.mjs';
import { describeCost, startDrainCost } from './drain-cost.mjs';
import { moveHelperThreads } from './helper-threads.mjs';
import { pinServices } from './pin-services.mjs';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const QUICK = args.includes('--quick');
const DURATION = Number(flag('duration', QUICK ? 2 : 5));
const ROUNDS = Number(flag('rounds', QUICK ? 1 : 3));
const REUSE = args.includes('--reuse');
const ONLY = flag('only', '');
const WEBHOOKS = !args.includes('--no-webhooks');
// wrk (Debian package `wrk`) when installed: the closed-loop generator shares core 1 with
// PostgreSQL and Redis, and wrk spends far less of it per response than autocannon does.
const GENERATOR = !args.includes('--autocannon') && spawnSync('wrk', ['-v']).error === undefined ? 'wrk' : 'autocannon';
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = 3917;
const BASE = `http://127.0.0.1:${PORT}`;
const NODE = process.execPath;
const SIZES = QUICK
  ? ['--tenants', '10', '--brands', '10000', '--page-groups', '100', '--sessions', '100000', '--hot-group-share', '1']
  : ['--tenants', '100', '--brands', '100000', '--page-groups', '1000', '--sessions', '1000000', '--hot-group-share', '1'];

const log = (line) => process.stderr.write(`${line}\n`);
// Every process the run starts; a failed run stops them, so it ends instead of waiting on them.
const children = new Set();
const pinned = (core, file, argv, env, stdio = ['ignore', 'pipe', 'inherit'], nodeFlags = [], niceness = []) => {
  const child = spawn('taskset', ['-c', String(core), ...niceness, NODE, ...nodeFlags, file, ...argv], { cwd: ROOT, env: { ...process.env, ...env }, stdio });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
};
// The services run with the memory settings of `npm start` and the Dockerfile.
const SERVICE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=16', '--no-allocation-site-pretenuring'];

// The seed's answer (it holds the sample API key) is kept out of the committed results, in
// bench/data/, so that --reuse can run again on the same data set.
async function seedOnce() {
  const saved = join(ROOT, 'bench', 'data', `seed-${QUICK ? 'quick' : 'full'}.json`);
  if (REUSE && existsSync(saved)) {
    log(`reusing the data set of ${saved}`);
    return JSON.parse(readFileSync(saved, 'utf8'));
  }
  log(`seeding ${DB_URL} (${SIZES.join(' ')})…`);
  await recreateDatabase(DB_URL);
  const seed = cli(['seed:bulk', ...SIZES], true);
  mkdirSync(join(ROOT, 'bench', 'data'), { recursive: true });
  writeFileSync(saved, JSON.stringify(seed));
  return seed;
}

// The measurements must not pay for the seed's aftermath: the statistics and visibility map of a
// table that autovacuum has visited, and the checkpoint of the seed's write-ahead log (otherwise
// it runs during the first scenarios, and every commit waits behind its writes).
// A server set up for tests may run with autovacuum off (this kind of machine does). A production
// server never would, and without it the dead versions of rows that writes update (a group's page
// counter, thousands of times a round) pile up for the whole run and slow every later read of
// them. The run switches it on for itself and puts the server's setting back afterwards.
async function ensureAutovacuum() {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT setting FROM pg_settings WHERE name = 'autovacuum'");
    if (rows[0].setting === 'on') return () => {};
    await client.query('ALTER SYSTEM SET autovacuum = on');
    await client.query('SELECT pg_reload_conf()');
    log('autovacuum was off on this server: on for the run, restored afterwards');
    return () => {
      spawnSync('psql', [DB_URL, '-qc', 'ALTER SYSTEM RESET autovacuum', '-c', 'SELECT pg_reload_conf()'], { stdio: 'ignore' });
    };
  } finally {
    await client.end();
  }
}

async function settleDatabase() {
  const started = Date.now();
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
  log(`database vacuumed, analysed and checkpointed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function cli(argv, inherit = false) {
  const result = spawnSync(NODE, [join(ROOT, 'dist', 'cli.js'), ...argv, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: DB_URL, SECRETS_ENCRYPTION_KEY: KEY, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', inherit ? 'inherit' : 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cli ${argv[0]} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

const KEY = Buffer.alloc(32, 42).toString('base64');
const SERVICE_ENV = {
  DATABASE_URL: DB_URL,
  REDIS_URL,
  SECRETS_ENCRYPTION_KEY: KEY,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  METRICS_ENABLED: 'false',
  RATE_LIMIT_MAX: '1000000',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  NODE_ENV: 'production',
  QUEUE_PREFIX: '{bench}',
};

async function startService(role, core, extra = {}) {
  // Service logs (JSON) go to bench/results/<role>.log for looking into a run.
  const logFile = openSync(join(ROOT, 'bench', 'results', `${role}.log`), 'w');
  // BENCH_API_NODE_FLAGS / BENCH_WORKER_NODE_FLAGS: extra node flags for looking into a run, e.g.
  // "--cpu-prof --cpu-prof-dir=/tmp/prof" (the profile is written when the process exits).
  const extraFlags = (process.env[`BENCH_${role.toUpperCase()}_NODE_FLAGS`] ?? '').split(' ').filter(Boolean);
  const child = pinned(core, join(ROOT, 'dist', 'main.js'), [], { ...SERVICE_ENV, SERVICE_ROLE: role, PORT: String(PORT), BENCH_BASELINES: 'true', ...extra }, ['ignore', logFile, 'inherit'], [...SERVICE_FLAGS, ...extraFlags]);
  if (role !== 'worker') {
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`${BASE}/health/ready`).then((r) => r.ok, () => false);
      if (ok) return child;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('API did not start');
  }
  return child;
}

// SIGTERM and wait for the exit (at most 15 s): a service finishes its shutdown, and writes its
// CPU profile when one was asked for, before the run's clean-up kills what is left.
function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 15_000);
    child.once('exit', () => (clearTimeout(timer), resolve()));
    child.kill('SIGTERM');
  });
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
  } catch {
    return 0;
  }
}

function sampleRss(pid) {
  let max = 0;
  const timer = setInterval(() => (max = Math.max(max, rssMb(pid))), 200);
  return () => {
    clearInterval(timer);
    return Math.max(max, rssMb(pid));
  };
}

// CPU time the hypervisor gave to other guests (steal), from /proc/stat: on a shared virtual
// machine it comes and goes, and every process of the run stalls while it lasts. Each
// measurement carries the share of the machine's time stolen while it ran.
function cpuTimes() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
}

// The open-loop generator (half load, the latency curve, webhook events at a fixed rate) runs at
// the highest CPU priority of its core (decisions.md 57). It shares core 1 with PostgreSQL and
// Redis, and a request it sends late is counted late (its latency runs from when it was due).
// At top priority it runs as soon as a request is due and then sleeps again; PostgreSQL and Redis
// keep every cycle it does not use. The closed-loop runs (maximum throughput) keep the default
// priority: there it would only take CPU from the server.
const GENERATOR_PRIORITY = spawnSync('nice', ['-n', '-20', 'true'], { encoding: 'utf8' }).stderr === '' ? ['nice', '-n', '-20'] : [];

function load(spec) {
  const before = cpuTimes();
  return new Promise((resolve, reject) => {
    const child = pinned(1, join(ROOT, 'bench', 'load.mjs'), [JSON.stringify(spec)], {}, undefined, [], spec.overallRate ? GENERATOR_PRIORITY : []);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      const after = cpuTimes();
      const stealPercent = round(((after.steal - before.steal) / Math.max(1, after.total - before.total)) * 100);
      resolve({ ...JSON.parse(out), stealPercent });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function main() {
  const started = Date.now();
  log(`building… (maximum throughput driven by ${GENERATOR})`);
  if (spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
  const seed = await seedOnce();
  await settleDatabase();
  restoreAutovacuum = await ensureAutovacuum();
  const diskFlush = probeDiskFlush();
  const { apiKey, brandId, pageGroupId, templateId } = seed.sample;
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };

  unpin = await pinServices({ databaseUrl: DB_URL, redisUrl: REDIS_URL, core: 1, log });
  const api = await startService('api', 0);
  // The API's JavaScript thread keeps core 0 to itself; its V8 helper threads go to core 1
  // (decisions.md 60). Baselines and endpoints run in this one process, so their ratios keep
  // comparing like with like.
  const helperThreads = moveHelperThreads(api.pid, 1);
  log(helperThreads > 0 ? `the API's ${helperThreads} V8 helper threads moved to core 1` : "the API's V8 helper threads could not be moved: they share core 0");
  const stopApiRss = sampleRss(api.pid);
  const tenantBrands = await (await fetch(`${BASE}/v0/brands?limit=100`, { headers })).json();
  const patchPaths = tenantBrands.items.map((b) => `/v0/brands/${b.brandId}`);
  const brandBody = JSON.stringify({ name: 'Bench brand', preferredAppearance: 'dark', themeLight: { borderColor: '#e5e7eb' }, themeDark: {} });
  const scenarios = [
    { name: 'bare NestJS (a)', path: '/bench/constant', method: 'GET', baseline: true },
    { name: 'bare NestJS + raw pg list (b)', path: '/bench/raw-brands', method: 'GET', baseline: true },
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
  ].filter((s) => s.baseline || s.name.includes(ONLY));
  const samples = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  // Measured in each round reads first, then writes, and the writes' dirty pages checkpointed
  // before the next round: a read measured right after POST pages (1,100 pages a second, each with
  // its version and event) shared the disk and the other core with the flushing of those writes
  // (UTM 0.47 of (a) there, 0.60 alone). Results keep the issue's order.
  const runOrder = [...scenarios.filter((s) => s.method === 'GET'), ...scenarios.filter((s) => s.method !== 'GET')];
  const spec = (s, extra = {}) => ({ url: `${BASE}${s.path}`, paths: s.paths, method: s.method, headers, body: s.body, duration: DURATION, generator: GENERATOR, ...extra });

  // Warm-up, not counted: every route once, so that the first scenario measured (baseline (a)) does
  // not pay for the JIT and the connection pools that the others find warm.
  log('warming up…');
  for (const s of scenarios) await load(spec(s, { duration: QUICK ? 1 : 2 }));
  for (let r = 1; r <= ROUNDS; r++) {
    await checkpoint();
    for (const s of runOrder) {
      const result = await load(spec(s));
      samples[s.name].push(result);
      log(`round ${r}/${ROUNDS}  ${s.name.padEnd(34)} ${String(Math.round(result.rps)).padStart(6)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  errors ${result.errors}  steal ${result.stealPercent} %`);
    }
  }
  const max = Object.fromEntries(
    scenarios.map((s) => {
      const runs = samples[s.name];
      return [s.name, { rps: median(runs.map((x) => x.rps)), p50Ms: median(runs.map((x) => x.p50Ms)), p99Ms: median(runs.map((x) => x.p99Ms)), errors: runs.reduce((a, x) => a + x.errors, 0) }];
    }),
  );
  const a = max['bare NestJS (a)'].rps;
  const b = max['bare NestJS + raw pg list (b)'].rps;

  // Interleaved rounds and medians, as for the maximum: one rare stall (a full GC, a slow fsync)
  // in one 5 s window does not decide the figure, and a recurring one still does.
  log('latency at half of the maximum throughput…');
  const halfRuns = {};
  for (let r = 1; r <= ROUNDS; r++) {
    await checkpoint();
    for (const s of runOrder.filter((x) => !x.baseline)) {
      const rate = Math.max(1, Math.floor(max[s.name].rps / 2));
      const result = await load(spec(s, { overallRate: rate }));
      (halfRuns[s.name] ??= []).push(result);
      log(`round ${r}/${ROUNDS}  ${s.name.padEnd(34)} at ${rate} req/s: p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  max ${result.maxMs} ms  errors ${result.errors}  steal ${result.stealPercent} %  generator (${result.generator.kind ?? 'node'}): sent late p99 ${result.generator.sendLagP99Ms} / max ${result.generator.sendLagMaxMs} ms`);
    }
  }
  const half = Object.fromEntries(Object.entries(halfRuns).map(([name, runs]) => [name, { p50Ms: median(runs.map((x) => x.p50Ms)), p99Ms: median(runs.map((x) => x.p99Ms)), p99MsEachRound: runs.map((x) => x.p99Ms), stealPercentEachRound: runs.map((x) => x.stealPercent), errors: runs.reduce((n, x) => n + x.errors, 0) }]));

  const curve = [];
  const list = scenarios.find((s) => s.name.startsWith('GET /v0/brands ('));
  if (list) {
    log('latency against load for GET /v0/brands…');
    await checkpoint();
    for (const share of [0.25, 0.5, 0.75, 0.9]) {
      const rate = Math.floor(max[list.name].rps * share);
      const result = await load(spec(list, { overallRate: rate }));
      curve.push({ rate, share, p50Ms: result.p50Ms, p99Ms: result.p99Ms });
    }
  }
  const apiRss = stopApiRss();

  let webhooks = { summary: {}, workerRss: 0 };
  if (WEBHOOKS) {
    // The worker's throughput is mostly PostgreSQL's work (claim and record each attempt): the
    // database gets both cores back, as it had before the API was measured.
    unpin();
    unpin = () => {};
    log('webhooks…');
    webhooks = await benchWebhooks(apiKey, pageGroupId, headers);
  }
  await stopProcess(api);

  // UTM values at scale (bench/utm-at-scale.mjs): the insert cost as a group's values grow.
  let utmAtScale = null;
  if (!ONLY || 'utm at scale'.includes(ONLY)) {
    const run = spawnSync(NODE, [join(ROOT, 'bench', 'utm-at-scale.mjs'), '--json', ...(QUICK ? ['--sizes', '10,10000', '--sessions', '100'] : [])], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    if (run.status !== 0) throw new Error('bench/utm-at-scale.mjs failed');
    utmAtScale = JSON.parse(run.stdout.trim().split('\n').pop());
  }

  const result = {
    // The seed's sizes only: its sample key stays out of the results, which are committed.
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: round(totalmem() / 2 ** 30), node: process.version, loadGenerator: GENERATOR, openLoopGenerator: Object.values(halfRuns)[0]?.[0]?.generator?.kind ?? null, openLoopPriority: GENERATOR_PRIORITY.length > 0 ? 'nice -20' : 'default', apiHelperThreadsCore: helperThreads > 0 ? 1 : 0, quick: QUICK, durationSeconds: DURATION, rounds: ROUNDS, seed: { ...seed, sample: undefined }, diskFlush },
    scenarios: scenarios.map((s) => ({
      name: s.name,
      rps: Math.round(max[s.name].rps),
      p50Ms: max[s.name].p50Ms,
      p99Ms: max[s.name].p99Ms,
      errors: max[s.name].errors,
      ratioToBareNest: round(max[s.name].rps / a, 2),
      ratioToRawPg: round(max[s.name].rps / b, 2),
      ...(half[s.name] && { halfLoad: { rps: Math.floor(max[s.name].rps / 2), p50Ms: half[s.name].p50Ms, p99Ms: half[s.name].p99Ms, p99MsEachRound: half[s.name].p99MsEachRound, stealPercentEachRound: half[s.name].stealPercentEachRound, errors: half[s.name].errors } }),
    })),
    latencyCurve: { scenario: list?.name, points: curve },
    webhooks: webhooks.summary,
    rssMb: { api: apiRss, worker: webhooks.workerRss },
    utmAtScale,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  // Only a full run is recorded; a quick or partial run (--quick, --only, --no-webhooks) prints its
  // figures and keeps them in bench/data/, out of the committed results.
  if (!QUICK && !ONLY && WEBHOOKS) writeResults(result);
  else {
    mkdirSync(join(ROOT, 'bench', 'data'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'data', 'last-partial-run.json'), `${JSON.stringify(result, null, 2)}\n`);
  }
  printTable(result);
}

// Before each measured round: the dirty pages of what ran before (a round's writes, the webhook
// backlog's pages) are written out now, not by the checkpointer in the middle of the next
// measurement, where its writes share the disk with every commit's flush.
function checkpoint() {
  return runStatement('CHECKPOINT');
}

// Tables written just before a measurement, vacuumed now rather than by autovacuum during it.
function vacuum(tables) {
  return runStatement(`VACUUM (ANALYZE) ${tables.join(', ')}`);
}

// One statement on a connection of its own (VACUUM cannot run inside a transaction); its result.
async function runStatement(sql) {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

// The scenarios' events (POST pages, duplicates) were made while no worker ran and no
// subscription existed. A worker running all along would have relayed each to nobody as it came;
// one run now does so before the receiver subscribes. Left in the outbox, they were relayed to the
// new subscription during the drain (about 24,000 in a full run), which then measured the relay
// working through them besides the deliveries it counts.
const UNPUBLISHED_EVENTS = 'SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL';

async function relayEarlierEvents() {
  const before = await countOf(UNPUBLISHED_EVENTS);
  if (before === 0) return;
  const worker = await startService('worker', 0, { DATABASE_POOL_MAX: '4' });
  await untilNoneLeft(UNPUBLISHED_EVENTS, 100, () => {
    if (worker.exitCode !== null || worker.signalCode !== null) throw new Error("the worker relaying the scenarios' events stopped (bench/results/worker.log)");
  });
  await stopProcess(worker);
  log(`  ${before} events of the scenarios relayed before subscribing (no subscription existed when they were made)`);
}

// The `n` a count query returns.
async function countOf(sql) {
  return (await runStatement(sql)).rows[0].n;
}

// Polls a count query every `everyMs` until it is 0; `check` may throw to give up.
async function untilNoneLeft(sql, everyMs, check = () => {}) {
  while ((await countOf(sql)) > 0) {
    check();
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// The worker's settings in the drain; the ceilings use the same.
const WORKER_CONCURRENCY = 64;
const ATTEMPTS_PER_JOB = Number(process.env.WEBHOOK_ATTEMPTS_PER_JOB ?? 4);

async function benchWebhooks(apiKey, pageGroupId, headers) {
  const receiverPort = 3918;
  // A reused data set (--reuse) keeps the subscriptions of earlier runs: they would multiply the
  // deliveries of every event.
  const earlier = await (await fetch(`${BASE}/v0/webhook_subscriptions?limit=100`, { headers })).json();
  for (const s of earlier.items ?? []) await fetch(`${BASE}/v0/webhook_subscriptions/${s.id}`, { method: 'DELETE', headers });
  await relayEarlierEvents();
  // Subscribe the receiver; events are produced through the API, as customers produce them.
  const subscription = await (await fetch(`${BASE}/v0/webhook_subscriptions`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hooks`, events: ['page.version.created'] }) })).json();
  const receiver = pinned(1, join(ROOT, 'bench', 'receiver.mjs'), [], { SIGNING_SECRET: subscription.signingSecret, PORT: String(receiverPort) });
  const lines = createInterface({ input: receiver.stdout });
  const waiters = [];
  let count = 0;
  let summary;
  lines.on('line', (line) => {
    if (line.startsWith('count ')) count = Number(line.slice(6));
    if (line.startsWith('summary ')) summary = JSON.parse(line.slice(8));
    for (const w of [...waiters]) if (w.test(line)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
  });
  const waitLine = (test) => new Promise((resolve) => waiters.push({ test, resolve }));
  await waitLine((l) => l === 'ready');

  // Throughput: a backlog of events made while no worker runs, then one worker drains it.
  const backlog = Number(flag('backlog', QUICK ? 2000 : 20000));
  const pages = `${BASE}/v0/page_groups/${pageGroupId}/pages`;
  let made = 0;
  while (made < backlog) {
    const batch = await Promise.all(Array.from({ length: 50 }, () => fetch(pages, { method: 'POST', headers }).then((r) => r.status)));
    made += batch.filter((s) => s === 201).length;
  }
  // The tables the scenarios and the backlog have just written are vacuumed now rather than by
  // autovacuum in the middle of the drain (in a full run it was vacuuming pages, versions,
  // events and deliveries during the drain), then checkpointed as before every measured round.
  await vacuum(['pages', 'page_versions', 'outbox_events', 'page_group_counters', 'webhook_deliveries', 'webhook_delivery_attempts']);
  await checkpoint();
  const worker = await startService('worker', 0, { WEBHOOK_CONCURRENCY: String(WORKER_CONCURRENCY), WEBHOOK_ATTEMPTS_PER_JOB: String(ATTEMPTS_PER_JOB), DATABASE_POOL_MAX: '24' });
  const stopWorkerRss = sampleRss(worker.pid);
  // Sustained rate: timed from the first hundred arrivals (the worker has started and connected)
  // to the last, so that the process's start-up is not counted as delivery time.
  const drain = async (drainer) => {
    await waitLine(() => count >= 100);
    const [t0, c0] = [Date.now(), count];
    const cost = await startDrainCost({ databaseUrl: DB_URL, redisUrl: REDIS_URL, pids: { worker: drainer.pid, receiver: receiver.pid } });
    await waitLine(() => count >= backlog);
    const drainSeconds = (Date.now() - t0) / 1000;
    return { delivered: backlog - c0, drainSeconds, perSecond: Math.round((backlog - c0) / drainSeconds), cost: await cost.finish(backlog - c0) };
  };
  const drained = await drain(worker);
  const deliveriesPerSecond = drained.perSecond;
  log(`  ${drained.delivered} deliveries by one worker in ${drained.drainSeconds.toFixed(1)} s (after the first 100): ${deliveriesPerSecond}/s`);
  log(`    ${describeCost(drained.cost)}`);

  // Latency at a fixed event rate: pages created at 200/s, time from each page's 201 (as the load
  // generator received it) to its event's arrival at the receiver, both on this machine's clock;
  // also from the event's creation in the API (which adds the API's own answer time). The
  // worker first finishes the backlog's tail (nothing unfinished), then 3 s of warm-up at the same
  // rate are sent and not counted.
  await untilNoneLeft("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'sending')", 200);
  const rate = 200;
  await load({ url: pages, method: 'POST', headers, body: '{}', duration: 3, overallRate: rate });
  await new Promise((r) => setTimeout(r, 500));
  receiver.kill('SIGUSR2');
  await waitLine((l) => l === 'reset');
  const measured = await load({ url: pages, method: 'POST', headers, body: '{}', duration: QUICK ? 5 : 10, overallRate: rate, answeredKey: 'pageId' });
  await new Promise((r) => setTimeout(r, 1500));
  const workerRss = stopWorkerRss();
  receiver.kill('SIGUSR1');
  await waitLine((l) => l.startsWith('summary '));
  const arrived = summary;
  // A page whose event has not arrived 1.5 s after the last 201 counts as that late at least.
  const end = Date.now();
  await stopProcess(worker);

  // The ceiling, in the same run: the same number of events as BullMQ jobs that carry their
  // bodies, signed and POSTed with the worker's own code and concurrency, and no database; one
  // POST per job, then as many per job as the worker groups.
  const { rows: sample } = await runStatement("SELECT body FROM outbox_events WHERE type = 'page.version.created' ORDER BY id DESC LIMIT 1");
  const ceilingOf = async (perJob) => {
    const spec = { redisUrl: REDIS_URL, url: `http://127.0.0.1:${receiverPort}/hooks`, signingSecret: subscription.signingSecret, body: sample[0].body, count: backlog, concurrency: WORKER_CONCURRENCY, perJob };
    const child = pinned(0, join(ROOT, 'bench', 'bullmq-baseline.mjs'), [JSON.stringify(spec)], {}, ['pipe', 'pipe', 'inherit'], SERVICE_FLAGS);
    await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    receiver.kill('SIGUSR2');
    await waitLine((l) => l === 'reset');
    count = 0;
    child.stdin.write('go\n');
    const measured = await drain(child);
    log(`  ceiling, BullMQ only (${perJob === 1 ? 'one signed POST per job' : `${perJob} signed POSTs per job`}, no database): ${measured.perSecond}/s`);
    log(`    ${describeCost(measured.cost)}`);
    await stopProcess(child);
    return measured;
  };
  const ceiling = await ceilingOf(1);
  const groupedCeiling = await ceilingOf(ATTEMPTS_PER_JOB);
  receiver.kill('SIGTERM');
  await waitLine((l) => l.startsWith('summary '));
  summary = arrived;
  const fromAnswer = Object.entries(measured.answered).map(([pageId, answeredAt]) => (summary.arrivals[pageId] ?? end) - answeredAt);
  const missing = Object.keys(measured.answered).filter((pageId) => summary.arrivals[pageId] === undefined).length;
  const quantile = (values, q) => {
    const sorted = [...values].sort((x, y) => x - y);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  log(`  at ${rate} events/s: 201 → arrival p50 ${quantile(fromAnswer, 0.5)} ms, p99 ${quantile(fromAnswer, 0.99)} ms (${fromAnswer.length} pages, ${missing} not arrived); creation → arrival p50 ${quantile(summary.latencies, 0.5)} ms, p99 ${quantile(summary.latencies, 0.99)} ms`);
  return {
    workerRss,
    summary: {
      deliveriesPerSecond,
      drainCost: drained.cost,
      attemptsPerJob: ATTEMPTS_PER_JOB,
      ceilingDeliveriesPerSecond: ceiling.perSecond,
      ceilingCost: ceiling.cost,
      groupedCeilingDeliveriesPerSecond: groupedCeiling.perSecond,
      groupedCeilingCost: groupedCeiling.cost,
      latencyP50Ms: quantile(fromAnswer, 0.5),
      latencyP99Ms: quantile(fromAnswer, 0.99),
      eventsPerSecond: rate,
      delivered: summary.distinct,
      notArrived: missing,
      badSignatures: summary.badSignatures,
      fromCreationP50Ms: quantile(summary.latencies, 0.5),
      fromCreationP99Ms: quantile(summary.latencies, 0.99),
    },
  };
}

function writeResults(result) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), text);
  writeFileSync(join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}.json`), text);
  writeFileSync(join(ROOT, 'docs', 'performance-latency.svg'), chart(result.latencyCurve));
  writeFileSync(join(ROOT, 'docs', 'performance.md'), report(result));
}

// The disk's own flush latency at a commit-like rate, before any load (bench/fsync-probe.mjs): a
// durable write cannot answer faster than its commit's flush, so this bounds every write's p99.
function probeDiskFlush() {
  const dataDirectory = process.env.BENCH_PG_DATA_PARENT ?? '/var/lib/postgresql';
  if (!existsSync(dataDirectory)) return null;
  const run = spawnSync(NODE, [join(ROOT, 'bench', 'fsync-probe.mjs'), QUICK ? '3' : '10', '300', dataDirectory], { encoding: 'utf8' });
  if (run.status !== 0) return null;
  const result = JSON.parse(run.stdout.trim());
  log(`disk flush (8 KB + fdatasync, 300/s, ${dataDirectory}): p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  max ${result.maxMs} ms  over 50 ms ${result.over50Ms}  arrivals waiting > 50 ms ${Math.round(result.shareOfArrivalsWaitingOver50Ms * 1000) / 10} %`);
  return result;
}

function printTable(result) {
  const rows = result.scenarios.map((s) => `${s.name.padEnd(34)} ${String(s.rps).padStart(7)} ${String(s.p50Ms).padStart(6)} ${String(s.p99Ms).padStart(6)} ${String(s.errors).padStart(6)} ${String(s.ratioToBareNest).padStart(6)} ${String(s.ratioToRawPg).padStart(6)}`);
  process.stdout.write(
    [
      `${'scenario'.padEnd(34)} ${'req/s'.padStart(7)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'errors'.padStart(6)} ${'/(a)'.padStart(6)} ${'/(b)'.padStart(6)}`,
      ...rows,
      '',
WEBHOOKS ? `webhooks: ${result.webhooks.deliveriesPerSecond} deliveries/s by one worker (ceiling, BullMQ only and no database: ${result.webhooks.ceilingDeliveriesPerSecond}/s one POST per job, ${result.webhooks.groupedCeilingDeliveriesPerSecond}/s ${result.webhooks.attemptsPerJob} per job); at ${result.webhooks.eventsPerSecond} events/s, 201 → arrival p50 ${result.webhooks.latencyP50Ms} ms, p99 ${result.webhooks.latencyP99Ms} ms; bad signatures ${result.webhooks.badSignatures}` : 'webhooks: not measured (--no-webhooks)',
      `resident memory under load: API ${result.rssMb.api} MB, worker ${result.rssMb.worker} MB`,
      QUICK || ONLY || !WEBHOOKS ? `partial run, not recorded: bench/data/last-partial-run.json (${result.seconds} s)` : `results: bench/results/latest.json, docs/performance.md (${result.seconds} s)`,
      '',
    ].join('\n'),
  );
}

function chart(recorded) {
  // Open-loop points only: a closed-loop figure at saturation is bounded by its connections and
  // would not be comparable (results recorded before this change still hold such a point).
  const curve = { ...recorded, points: recorded.points.filter((p) => p.share < 1) };
  const w = 640, h = 360, pad = 50;
  const maxX = Math.max(...curve.points.map((p) => p.rate));
  const maxY = Math.max(...curve.points.map((p) => p.p99Ms), 1);
  const x = (v) => pad + (v / maxX) * (w - 2 * pad);
  const y = (v) => h - pad - (v / maxY) * (h - 2 * pad);
  const line = (key, color) => `<polyline fill="none" stroke="${color}" stroke-width="2" points="${curve.points.map((p) => `${x(p.rate).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ')}"/>` + curve.points.map((p) => `<circle cx="${x(p.rate).toFixed(1)}" cy="${y(p[key]).toFixed(1)}" r="3" fill="${color}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${w / 2}" y="20" text-anchor="middle">${curve.scenario}: latency against load</text>
<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="black"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="black"/>
<text x="${w / 2}" y="${h - 10}" text-anchor="middle">offered load (req/s, constant rate; 25, 50, 75, 90 % of the maximum)</text>
<text x="15" y="${h / 2}" transform="rotate(-90 15 ${h / 2})" text-anchor="middle">latency (ms)</text>
<text x="${pad - 5}" y="${y(maxY) + 4}" text-anchor="end">${maxY}</text><text x="${pad - 5}" y="${h - pad + 4}" text-anchor="end">0</text>
<text x="${w - pad}" y="${h - pad + 15}" text-anchor="end">${maxX}</text>
${line('p99Ms', '#dc2626')}${line('p50Ms', '#2563eb')}
<text x="${w - pad}" y="${pad}" text-anchor="end" fill="#dc2626">p99</text><text x="${w - pad}" y="${pad + 15}" text-anchor="end" fill="#2563eb">p50</text>
</svg>
`;
}

function report(result) {
  const rows = result.scenarios.map((s) => `| ${s.name} | ${s.rps} | ${s.p50Ms} | ${s.p99Ms} | ${s.errors} | ${s.ratioToBareNest} | ${s.ratioToRawPg} | ${s.halfLoad ? `${s.halfLoad.rps} → p50 ${s.halfLoad.p50Ms}, p99 ${s.halfLoad.p99Ms} (rounds: ${s.halfLoad.p99MsEachRound.join(', ')}${s.halfLoad.stealPercentEachRound ? `; CPU steal % ${s.halfLoad.stealPercentEachRound.join(', ')}` : ''})` : '—'} |`);
  return `# Performance

Measured by \`npm run bench\`${result.machine.quick ? ' (--quick: small data set, short runs)' : ''} on this machine (${result.machine.cpus} cores, ${result.machine.memoryGb} GiB, Node ${result.machine.node}); the API pinned to core 0${result.machine.apiHelperThreadsCore === 1 ? " (its JavaScript thread; its V8 helper threads for garbage collection and compiling on core 1)" : ''}; PostgreSQL, Redis and the load generator on core 1 (PostgreSQL back on both cores for the webhook measurements).
Maximum throughput: ${result.machine.loadGenerator ?? 'autocannon'}, 32 connections, after a warm-up. Half load and the latency curve: an open-loop generator at a constant rate (${result.machine.openLoopGenerator === 'c' ? 'bench/open-loop.c' : 'bench/constant-rate.mjs'}${result.machine.openLoopPriority === 'nice -20' ? ', at the top CPU priority of its core, so that it sends on time' : ''}), latency counted from when each request was due (no coordinated omission), after 1 s of warm-up. PATCH goes round 100 brands of the tenant. Each round measures the reads, then the writes, after a checkpoint.
Data set: ${result.machine.seed.tenants} tenants, ${result.machine.seed.brands} brands, ${result.machine.seed.pageGroups} page groups, ${result.machine.seed.sessions} sessions (all in the measured page group). Medians of ${result.machine.rounds} interleaved round(s) of ${result.machine.durationSeconds} s.
Baselines, measured in the same run: (a) a bare NestJS route behind the same middleware, key guard, rate limit and filter, answering a constant; (b) the same, running the one raw \`pg\` query the brand list needs.
${result.machine.diskFlush ? `The disk under PostgreSQL, before the load (bench/fsync-probe.mjs, 8 KB + fdatasync at ${result.machine.diskFlush.rate}/s for ${result.machine.diskFlush.flushes} flushes): p50 ${result.machine.diskFlush.p50Ms} ms, p99 ${result.machine.diskFlush.p99Ms} ms, max ${result.machine.diskFlush.maxMs} ms; ${result.machine.diskFlush.over50Ms} flushes over 50 ms, so ${Math.round(result.machine.diskFlush.shareOfArrivalsWaitingOver50Ms * 1000) / 10} % of commits arriving at any moment would wait > 50 ms for the disk alone.\n` : ''}
| scenario | req/s | p50 ms | p99 ms | errors | ÷ (a) | ÷ (b) | half load: req/s → ms (median of rounds) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Webhooks: **${result.webhooks.deliveriesPerSecond} deliveries/s** sustained by one worker process (${result.webhooks.attemptsPerJob ?? 1} attempts to a queue job at most) to a local receiver that verifies every signature${result.webhooks.ceilingDeliveriesPerSecond ? `, against a ceiling measured in the same run with BullMQ alone and no database (bench/bullmq-baseline.mjs: the same receiver, signer, sender and concurrency) of ${result.webhooks.ceilingDeliveriesPerSecond}/s with one POST per job and ${result.webhooks.groupedCeilingDeliveriesPerSecond}/s with ${result.webhooks.attemptsPerJob} per job` : ''}; at ${result.webhooks.eventsPerSecond} events/s, API 201 → receiver p50 **${result.webhooks.latencyP50Ms} ms**, p99 **${result.webhooks.latencyP99Ms} ms** (${result.webhooks.delivered} events, ${result.webhooks.badSignatures} bad signatures${result.webhooks.fromCreationP50Ms !== undefined ? `; from the event's creation in the API, which adds the API's own answer time: p50 ${result.webhooks.fromCreationP50Ms} ms, p99 ${result.webhooks.fromCreationP99Ms} ms` : ''}).

${result.webhooks.drainCost ? `What one delivery of the drain cost (bench/drain-cost.mjs; CPU from /proc, Redis commands including those inside its scripts, PostgreSQL transactions):

| drain | deliveries/s | CPU µs per delivery (worker, PostgreSQL, Redis, receiver, other) | cores busy | Redis commands | PostgreSQL transactions |
|---|---|---|---|---|---|
${[['the worker, PostgreSQL the truth', result.webhooks.deliveriesPerSecond, result.webhooks.drainCost], ['ceiling: BullMQ only, one POST per job', result.webhooks.ceilingDeliveriesPerSecond, result.webhooks.ceilingCost], [`ceiling: BullMQ only, ${result.webhooks.attemptsPerJob} POSTs per job`, result.webhooks.groupedCeilingDeliveriesPerSecond, result.webhooks.groupedCeilingCost]].map(([name, rate, c]) => `| ${name} | ${rate} | ${c.cpuUsPerDeliveryTotal} (${['worker', 'postgres', 'redis', 'receiver', 'other'].map((k) => c.cpuUsPerDelivery[k] ?? 0).join(', ')}) | ${c.coresBusy} | ${c.redisCommandsPerDelivery} | ${c.postgresTransactionsPerDelivery} |`).join('\n')}

` : ''}Resident memory under load: API ${result.rssMb.api} MB, worker ${result.rssMb.worker} MB.

![latency against load](performance-latency.svg)

Targets, what was changed and why some are missed: [performance-analysis.md](performance-analysis.md).

Raw results: \`bench/results/latest.json\` (and a dated copy), in the shape
\`{ machine, scenarios: [{ name, rps, p50Ms, p99Ms, errors, ratioToBareNest, ratioToRawPg }], webhooks, rssMb }\`.
`;
}

if (args.includes('--report')) {
  const recorded = JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'latest.json'), 'utf8'));
  writeFileSync(join(ROOT, 'docs', 'performance-latency.svg'), chart(recorded.latencyCurve));
  writeFileSync(join(ROOT, 'docs', 'performance.md'), report(recorded));
  process.exit(0);
}
let unpin = () => {};
let restoreAutovacuum = () => {};
process.once('SIGINT', () => {
  unpin();
  restoreAutovacuum();
  for (const child of children) child.kill('SIGKILL');
  process.exit(130);
});
main()
  .catch((error) => {
    log(`bench failed: ${error.stack ?? error}`);
    process.exitCode = 1;
  })
  .finally(() => {
    unpin();
    restoreAutovacuum();
    for (const child of children) child.kill('SIGKILL');
  });
