// `npm run soak`: proves "nothing lost under load" on the built service. N page creations at
// concurrency C against a fresh database, K subscriptions of one tenant to a receiver on loopback
// that verifies every signature and fails a share of first answers; with --chaos, at random
// moments while pages are created: a database cut through a TCP proxy, a Redis restart (empty) and
// a worker kill -9, each at least once. Prints what was created and delivered, what was lost, the
// duplicates after a 2xx, bad signatures, creation latency, time until all delivered and peak RSS
// of each process; exits 1 if anything was lost or badly signed, or the run timed out.
// Loopback only. Options: bench/soak/options.mjs.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort, PrivateRedis, TcpProxy } from './soak/faults.mjs';
import { parseSoakOptions, percentile, seededRandom, SoakOptionsError, verdict } from './soak/options.mjs';
import { SoakReceiver } from './soak/receiver.mjs';
import { faultCounts } from './lib/report.mjs';
import { isRecordedSize, recordSoak } from './soak/record.mjs';
import { SoakServices } from './soak/services.mjs';

const ROOT = join(import.meta.dirname, '..');
let options;
try {
  options = parseSoakOptions(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof SoakOptionsError)) throw error;
  process.stderr.write(`soak: ${error.message}\n`);
  process.exit(2);
}
const random = seededRandom(options.seed);
const started = Date.now();
const deadline = started + options.timeoutSeconds * 1000;
const progress = (text) => process.stderr.write(`soak ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${text}\n`);

const server = new URL(options.serverUrl);
const databaseName = `landing_api_soak_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: options.serverUrl });
const proxy = new TcpProxy(server.hostname, Number(server.port || 5432));
const redis = new PrivateRedis();
const receiver = new SoakReceiver({ failShare: options.failShare, random });
let services;
let db;
let loadStarted = 0;

async function main() {
  progress(`seed ${options.seed}: ${options.pages} pages at concurrency ${options.concurrency}, ${options.subscriptions} subscriptions, ${options.failShare * 100}% of first answers failed${options.chaos ? ', chaos' : ''}`);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await Promise.all([proxy.start(), redis.start(), receiver.start()]);
  const direct = new URL(options.serverUrl);
  direct.pathname = `/${databaseName}`;
  const throughProxy = new URL(direct);
  throughProxy.hostname = '127.0.0.1';
  throughProxy.port = String(proxy.port);
  db = new pg.Client({ connectionString: direct.toString() });

  const port = await freePort();
  let baseUrl = `http://127.0.0.1:${port}`;
  services = new SoakServices({
    DATABASE_URL: throughProxy.toString(),
    REDIS_URL: redis.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'error',
    METRICS_ENABLED: 'false',
    RATE_LIMIT_MAX: '1000000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // A soak's recovery times, short enough to wait for: a failed first answer is retried after
    // a second, a killed worker's attempts are taken again after 5 s, the sweeper looks each second.
    WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,30s,60s',
    WEBHOOK_ATTEMPT_LOCK_MS: '5000',
    WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  });
  services.start('api');
  await services.apiReady(baseUrl);
  services.start('worker');
  await db.connect();

  const cli = (...argv) => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...argv, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: direct.toString(), SECRETS_ENCRYPTION_KEY: services.env.SECRETS_ENCRYPTION_KEY, LOG_LEVEL: 'error' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`cli ${argv[0]} failed: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };
  const { tenantId } = cli('tenant:create', '--name', 'Soak');
  const { apiKey } = cli('api-key:create', '--tenant', tenantId);
  const { pageGroupId } = cli('page-group:create', '--tenant', tenantId, '--name', 'Soak pages');
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  // The API answering is ours only if it knows this soak's key and page group: another process
  // can take the port between freePort() and the API's listen (a 401 here once, in a CI run of
  // the whole suite). Then the API goes to another port.
  for (let moves = 0, tries = 1; ; tries++) {
    const status = await fetch(`${baseUrl}/v0/page_groups/${pageGroupId}`, { headers }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
    if (status === 200) break;
    // Not answered, or not yet able to (a closed keep-alive connection, a 5xx): asked again.
    if ((status === 0 || status >= 500) && tries < 20) {
      await sleep(250);
      continue;
    }
    if (++moves > 3) throw new Error(`the API on ${baseUrl} does not know this soak's key: ${status}`);
    const next = await freePort();
    progress(`port ${new URL(baseUrl).port} answered ${status} for this soak's key: the API moves to ${next}`);
    await services.moveApi(next);
    baseUrl = `http://127.0.0.1:${next}`;
    await services.apiReady(baseUrl);
  }
  for (let k = 0; k < options.subscriptions; k++) {
    // As the creations below: retried with its Idempotency-Key when the request fails on its way.
    // The CLI calls above block this process (spawnSync) for seconds on a busy machine; the
    // readiness check's keep-alive connection is closed by the API meanwhile, and this process
    // learns of it only when it sends on it (undici: UND_ERR_SOCKET, "other side closed").
    const key = `soak-subscription-${randomBytes(8).toString('hex')}`;
    for (let tries = 1; ; tries++) {
      const res = await fetch(`${baseUrl}/v0/webhook_subscriptions`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify({ url: receiver.url(k), events: ['page.version.created'] }) }).catch(() => null);
      if (res?.status === 201) {
        receiver.secrets[k] = (await res.json()).signingSecret;
        break;
      }
      if (res) await res.arrayBuffer();
      if (tries === 20 || (res && res.status < 500 && res.status !== 409 && res.status !== 429)) throw new Error(`subscription ${k}: ${res ? res.status : 'unreachable API'}`);
      await sleep(250);
    }
  }

  // Creations: each page has its Idempotency-Key, retried with it until a 201 (a cut database
  // answers 503; a retry after a commit whose answer was lost gets the same page back).
  const latencies = [];
  const pageIds = new Set();
  // Times in the summary count from here: the setup before is not the load.
  loadStarted = Date.now();
  let creationSeconds = 0;
  let retried = 0;
  let next = 0;
  const createOne = async () => {
    const key = `soak-${randomBytes(8).toString('hex')}`;
    const first = performance.now();
    for (;;) {
      if (Date.now() > deadline) throw new Error('timed out while creating pages');
      const res = await fetch(`${baseUrl}/v0/page_groups/${pageGroupId}/pages`, { method: 'POST', headers: { ...headers, 'idempotency-key': key } }).catch(() => null);
      if (res?.status === 201) {
        pageIds.add((await res.json()).pageId);
        latencies.push(performance.now() - first);
        return;
      }
      if (res) await res.arrayBuffer();
      if (res && res.status < 500 && res.status !== 429 && res.status !== 409) throw new Error(`page creation answered ${res.status}`);
      retried++;
      await sleep(100 + random() * 200);
    }
  };
  const creating = Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.pages) {
        next++;
        await createOne();
      }
    }),
  );
  let creationsDone = false;
  const created = creating.finally(() => {
    creationsDone = true;
    creationSeconds = (Date.now() - loadStarted) / 1000;
  });
  const ticker = setInterval(() => progress(`created ${pageIds.size}/${options.pages}, delivered ${receiver.delivered.size}`), 5000);

  // Chaos: each fault kind once in a random order, then more at random while pages are created.
  const faults = [];
  const chaos = options.chaos ? runChaos(() => creationsDone, faults) : Promise.resolve();
  await created;
  await chaos;

  // Every committed event must reach every subscription.
  const events = Number((await db.query("SELECT count(*) AS n FROM outbox_events WHERE type = 'page.version.created'")).rows[0].n);
  const pagesInDatabase = Number((await db.query('SELECT count(*) AS n FROM pages')).rows[0].n);
  const expected = events * options.subscriptions;
  let timedOut = false;
  while (receiver.delivered.size < expected) {
    if (Date.now() > deadline) {
      timedOut = true;
      break;
    }
    await sleep(200);
  }
  const allDelivered = (Date.now() - loadStarted) / 1000;
  clearInterval(ticker);
  // A moment for late duplicates (a killed worker's attempt sent again after its lease).
  await sleep(options.chaos ? 1000 : 0);
  await services.stop();

  const summary = {
    seed: options.seed,
    chaos: options.chaos,
    pages: options.pages,
    concurrency: options.concurrency,
    subscriptions: options.subscriptions,
    created: pageIds.size,
    phantoms: pagesInDatabase - pageIds.size,
    creationRetries: retried,
    expected,
    delivered: receiver.delivered.size,
    lost: expected - receiver.delivered.size,
    duplicatesAfter2xx: receiver.duplicatesAfter2xx,
    badSignatures: receiver.badSignatures,
    failShare: options.failShare,
    failedFirstAnswers: receiver.failedFirst,
    receiverRequests: receiver.requests,
    creationMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
    creationSeconds: round(creationSeconds),
    allDeliveredSeconds: timedOut ? null : round(allDelivered),
    timedOut,
    faults,
    // Processes that exited on their own (and were started again), with what they died of (lastWords).
    unexpectedExits: services.exits.map(({ role, code, signal, said }) => ({ role, code, signal, said })),
    peakRssMb: { api: mb(services.peaks.api), worker: mb(services.peaks.worker), driverAndReceiver: mb(process.resourceUsage().maxRSS * 1024) },
  };
  return summary;
}

/** Runs faults one after another at random moments until every kind has happened and creations are done. */
async function runChaos(creationsDone, faults) {
  const kinds = ['database cut', 'redis restart', 'worker kill -9'].sort(() => random() - 0.5);
  while (kinds.length > 0 || !creationsDone()) {
    await sleep(300 + random() * 1500);
    if (kinds.length === 0 && creationsDone()) break;
    const kind = kinds.shift() ?? ['database cut', 'redis restart', 'worker kill -9'][Math.floor(random() * 3)];
    const at = round((Date.now() - loadStarted) / 1000);
    const ms = Math.round(500 + random() * 1500);
    progress(`fault: ${kind} for ${ms} ms`);
    if (kind === 'database cut') await proxy.cut(ms);
    else if (kind === 'redis restart') await redis.restart(ms);
    else await services.killWorker(ms);
    faults.push({ kind, atSeconds: at, ms });
  }
}

const round = (n) => (n === null ? null : Math.round(n * 10) / 10);
const mb = (bytes) => Math.round(bytes / 1024 / 1024);

function print(summary) {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const lines = [
    `soak (${summary.chaos ? 'chaos' : 'plain'}, seed ${summary.seed}): ${summary.pages} pages at concurrency ${summary.concurrency}, ${summary.subscriptions} subscriptions`,
    `created ${summary.created} (${summary.creationRetries} retried requests), p50 ${summary.creationMs.p50} ms, p99 ${summary.creationMs.p99} ms, in ${summary.creationSeconds} s`,
    `delivered ${summary.delivered}/${summary.expected}, lost ${summary.lost}, duplicates after a 2xx ${summary.duplicatesAfter2xx}, bad signatures ${summary.badSignatures}`,
    `failed first answers ${summary.failedFirstAnswers}, receiver requests ${summary.receiverRequests}, all delivered after ${summary.allDeliveredSeconds ?? 'never'} s`,
    `faults: ${faultCounts(summary.faults)}${summary.faults.length > 0 ? ` (${summary.faults[0].atSeconds}–${summary.faults.at(-1).atSeconds} s after the load began, each 0.5–2 s)` : ''}`,
    `peak RSS: api ${summary.peakRssMb.api} MB, worker ${summary.peakRssMb.worker} MB, driver and receiver ${summary.peakRssMb.driverAndReceiver} MB`,
    `processes that exited on their own and were started again: ${summary.unexpectedExits.map((e) => `${e.role} (${e.said || e.code})`).join('; ') || 'none'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function cleanUp() {
  await services?.stop().catch(() => undefined);
  await db?.end().catch(() => undefined);
  await Promise.all([proxy.stop(), redis.stop(), receiver.stop()]).catch(() => undefined);
  // SOAK_KEEP_DATABASE=true keeps it for a look after a failed run (its name is printed).
  if (process.env.SOAK_KEEP_DATABASE === 'true') process.stderr.write(`soak: database kept: ${databaseName}\n`);
  else await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
}

try {
  const summary = await main();
  await cleanUp();
  print(summary);
  const { ok, problems } = verdict(summary);
  if (!ok) process.stderr.write(`soak: FAILED: ${problems.join('; ')}\n`);
  else if (isRecordedSize(options)) {
    recordSoak(ROOT, summary);
    process.stderr.write('soak: recorded in bench/results/soak.json and docs/performance.md\n');
  }
  process.exit(ok ? 0 : 1);
} catch (error) {
  // What exited on its own says why, when a service is the cause (what it died of: lastWords).
  const exits = (services?.exits ?? []).map((e) => `\n  ${e.role} exited (${e.signal ?? e.code}): ${e.said}`).join('');
  await cleanUp();
  process.stderr.write(`soak: ${error.message}${exits}\n`);
  process.exit(1);
}
