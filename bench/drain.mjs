// `npm run bench:drain -- --before <dir>`: the webhook drain of this build beside another build's,
// in the same run, rounds interleaved (ABBA), medians reported. <dir> is a checkout of another
// commit with its own dist/ (git worktree add <dir> <commit>; ln -s node_modules; npm run build).
// It answers "is the drain within x % of its figure before this change" on a noisy host, where two
// runs minutes apart differ by more than the change being judged.
//   --before DIR     the other build (required)
//   --backlog N      events per drain (default 20,000)
//   --rounds N       rounds; each drains once per build (default 5: an odd count, a true median)
//   --past-days N    a build that keeps history by day gets N days before today, as a deployment
//                    that has run that long (default 30: 47 days in all with the 14 made ahead)
//   --json           print one JSON object on the last line of stdout
// Each build gets its own database, migrated and seeded by its own CLI, its own subscription and
// receiver; a round makes the backlog through the build's API while no worker runs, stops the API,
// then times one worker (the drain of `npm run bench`: default caps, 24 connections, attempts
// grouped by 4) from its 100th arrival to its last.
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { buildEnv, pastDaysOf, processes, seedBuild, untilReady } from './lib/builds.mjs';
import { recreateDatabase } from './lib/database.mjs';
import { describeCost, startDrainCost } from './lib/drain-cost.mjs';
import { extraNodeFlags, ROOT } from './lib/services.mjs';
import { median } from './lib/stats.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const BEFORE = flag('before', undefined);
const BACKLOG = Number(flag('backlog', '20000'));
const ROUNDS = Number(flag('rounds', '5'));
const PAST_DAYS = Number(flag('past-days', '30'));
const log = (line) => process.stderr.write(`${line}\n`);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/12';
const API_PORT = 3927;

if (!BEFORE || !existsSync(join(BEFORE, 'dist', 'main.js'))) {
  log('usage: npm run bench:drain -- --before <dir holding another build: dist/main.js>');
  process.exit(2);
}

const { start, stop, stopAll } = processes();

async function statement(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One build: its database, its seed, a subscription to its own receiver. */
async function prepare(name, root, receiverPort) {
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/landing_api_bench_drain_${name}`;
  await recreateDatabase(databaseUrl);
  const env = buildEnv({ DATABASE_URL: databaseUrl, REDIS_URL, QUEUE_PREFIX: `{drain-${name}}`, PORT: String(API_PORT) });
  const { apiKey, pageGroupId } = seedBuild(root, env, ['--tenants', '1', '--brands', '10', '--page-groups', '2', '--sessions', '100', '--hot-group-share', '1'], name);
  const days = await pastDaysOf(root, databaseUrl, PAST_DAYS);
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const build = { name, root, env, databaseUrl, headers, days, pages: `http://127.0.0.1:${API_PORT}/v0/page_groups/${pageGroupId}/pages`, drains: [] };
  const subscription = await withApi(build, async (base) =>
    (await fetch(`${base}/v0/webhook_subscriptions`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hooks`, events: ['page.version.created'] }) })).json(),
  );
  build.receiver = await startReceiver(subscription.signingSecret, receiverPort);
  return build;
}

async function withApi(build, work) {
  const logs = join(ROOT, 'bench', 'results', `drain-${build.name}-api.log`);
  const api = start(build.root, 'dist/main.js', { ...build.env, SERVICE_ROLE: 'api' }, ['ignore', openSync(logs, 'w'), 'inherit']);
  const base = `http://127.0.0.1:${API_PORT}`;
  try {
    await untilReady(base, `the API of ${build.name} (${logs})`);
    return await work(base);
  } finally {
    await stop(api);
  }
}

function startReceiver(secret, port) {
  const child = start(ROOT, 'bench/processes/receiver.mjs', { SIGNING_SECRET: secret, PORT: String(port) });
  const receiver = { child, count: 0, waiters: [] };
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('count ')) receiver.count = Number(line.slice(6));
    for (const w of [...receiver.waiters]) if (w.test(line)) (receiver.waiters.splice(receiver.waiters.indexOf(w), 1), w.resolve());
  });
  receiver.until = (test) => new Promise((resolve) => receiver.waiters.push({ test, resolve }));
  return receiver.until((l) => l === 'ready').then(() => receiver);
}

/** One round of one build: the backlog made through its API, then one worker's drain, timed. */
async function drainOnce(build) {
  await withApi(build, async () => {
    for (let made = 0; made < BACKLOG; ) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => fetch(build.pages, { method: 'POST', headers: build.headers }).then((r) => r.status)));
      made += batch.filter((s) => s === 201).length;
    }
  });
  await statement(build.databaseUrl, 'VACUUM (ANALYZE) pages, page_versions, outbox_events, page_group_counters, webhook_deliveries, webhook_delivery_attempts');
  await statement(build.databaseUrl, 'CHECKPOINT');
  const { receiver } = build;
  receiver.child.kill('SIGUSR2');
  await receiver.until((l) => l === 'reset');
  receiver.count = 0;
  const logs = join(ROOT, 'bench', 'results', `drain-${build.name}-worker.log`);
  // BENCH_WORKER_NODE_FLAGS reach both builds' workers, as in `npm run bench`.
  const worker = start(build.root, 'dist/main.js', { ...build.env, SERVICE_ROLE: 'worker', WEBHOOK_ATTEMPTS_PER_JOB: '4', DATABASE_POOL_MAX: '24' }, ['ignore', openSync(logs, 'w'), 'inherit'], extraNodeFlags('worker'));
  try {
    await receiver.until(() => receiver.count >= 100);
    const [t0, c0] = [Date.now(), receiver.count];
    const cost = await startDrainCost({ databaseUrl: build.databaseUrl, redisUrl: REDIS_URL, pids: { worker: worker.pid, receiver: receiver.child.pid } });
    await receiver.until(() => receiver.count >= BACKLOG);
    const seconds = (Date.now() - t0) / 1000;
    const perSecond = Math.round((BACKLOG - c0) / seconds);
    return { perSecond, cost: await cost.finish(BACKLOG - c0) };
  } finally {
    await stop(worker);
  }
}

async function main() {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const builds = [await prepare('this', ROOT, 3928), await prepare('before', resolve(BEFORE), 3929)];
  log(`drains of ${BACKLOG} events, ${ROUNDS} rounds (this build: ${ROOT}, ${builds[0].days || 'no'} days; before: ${resolve(BEFORE)}, ${builds[1].days || 'no'} days)`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const drained = await drainOnce(build);
      build.drains.push(drained.perSecond);
      log(`  round ${round + 1} ${build.name.padEnd(6)} ${drained.perSecond}/s  ${describeCost(drained.cost)}`);
    }
  }
  const [now, before] = builds.map((b) => median(b.drains));
  log(`median: this build ${now}/s, before ${before}/s: ${((now / before - 1) * 100).toFixed(1)} %`);
  for (const build of builds) await stop(build.receiver.child);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify({ backlog: BACKLOG, rounds: ROUNDS, thisBuild: builds[0].drains, before: builds[1].drains, medians: { thisBuild: now, before } })}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    log(error.stack ?? String(error));
    stopAll();
    process.exit(1);
  },
);
