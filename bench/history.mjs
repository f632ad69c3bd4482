// `npm run bench:history`: the delivery log and the events API on a 30-day history of 10,000,000
// attempts (issue 44). A database of its own, migrated by the production build, laid out as a
// deployment that has run for 30 days (a partition per day, history-tables.ts), filled in SQL
// with progress; then the API process (dist/main.js) measured through HTTP: the maximum with wrk,
// then p50/p99 at half of it with the open-loop generator (no coordinated omission).
//   --attempts N     attempts in the history (default 10,000,000); deliveries are half, events a tenth
//   --days N         days of history (default 30)
//   --duration S     seconds of each maximum (default 5; the half-load runs at least 10)
//   --rounds N       interleaved rounds, medians reported (default 3)
//   --reuse          measure the history of the last run again (no new database)
//   --json           print one JSON object on the last line of stdout
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { recreateDatabase } from './lib/database.mjs';
import { layOutPastDays } from './lib/past-days.mjs';
import { runOpenLoop, runWrk, missingTools } from './lib/generators.mjs';
import { BASE, ROOT, createServices } from './lib/services.mjs';
import { median } from './lib/stats.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ATTEMPTS = Number(flag('attempts', '10000000'));
const DAYS = Number(flag('days', '30'));
const DURATION = Number(flag('duration', '5'));
const ROUNDS = Number(flag('rounds', '3'));
const DB_URL = process.env.BENCH_HISTORY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_bench_history';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13';
const log = (line) => process.stderr.write(`${line}\n`);
const TENANTS = 100;
const SUBSCRIPTIONS_PER_TENANT = 10;
// Each event goes to 5 of its tenant's 10 subscriptions; each delivery took 2 attempts.
const FAN_OUT = 5;
const ATTEMPTS_PER_DELIVERY = 2;

const DAY_MS = 86_400_000;
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
/** The smallest TypeID of `prefix` made at `ms` (as typeIdLowerBound in src/domain/shared/type-id.ts; here so that a build from before runs it too). */
function boundaryId(prefix, ms) {
  let out = '';
  for (let i = 0; i < 10; i++) out += CROCKFORD[Math.floor(ms / 2 ** (45 - 5 * i)) % 32];
  return `${prefix}_${out}${'0'.repeat(16)}`;
}

/** A millisecond time as a TypeID suffix's first ten Crockford base32 characters, in SQL (`ms` a bigint column). */
const TIME_CHARS = Array.from({ length: 10 }, (_, i) => `substr('0123456789abcdefghjkmnpqrstvwxyz', ((ms >> ${45 - 5 * i}) & 31)::int + 1, 1)`).join(' || ');

function cli(argv) {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...argv, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: DB_URL, SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'), LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`cli ${argv[0]} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

async function main() {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`missing: ${missing.join('; ')}`);
  const history = historyTables();

  const REUSE = args.includes('--reuse');
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const sql = new pg.Client({ connectionString: DB_URL });
  const services = createServices({ databaseUrl: DB_URL, redisUrl: REDIS_URL, hostChanges: { pin: false }, quick: true }, log);
  let tenant;
  let apiKey;
  let first;
  if (REUSE) {
    // The history of the last run, measured again (by this build): a new key for its tenant.
    await sql.connect();
    tenant = { id: (await sql.query(`SELECT id FROM tenants WHERE name = 'history'`)).rows[0].id };
    first = Number((await sql.query(`SELECT extract(epoch FROM min(created_at)) * 1000 AS ms FROM outbox_events`)).rows[0].ms);
    first = Math.floor(first / DAY_MS) * DAY_MS;
    ({ apiKey } = cli(['api-key:create', '--tenant', tenant.id]));
    await services.startService('api', 0, { SERVICE_ROLE: 'api' });
    log(`history: reusing ${DB_URL}`);
  } else {
    ({ tenant, apiKey, first } = await seed(sql, services, today));
  }
  const headers = { 'x-api-key': apiKey };
  const counts = (await sql.query(`SELECT (SELECT count(*) FROM outbox_events)::bigint AS events, (SELECT count(*) FROM webhook_deliveries)::bigint AS deliveries,
                                          (SELECT count(*) FROM webhook_delivery_attempts)::bigint AS attempts`)).rows[0];
  log(`  history: ${Number(counts.events).toLocaleString('en-US')} events, ${Number(counts.deliveries).toLocaleString('en-US')} deliveries, ${Number(counts.attempts).toLocaleString('en-US')} attempts`);
  const results = [];
  try {
    const get = async (path) => {
      const res = await fetch(`${BASE}${path}`, { headers });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const subs = Array.from({ length: SUBSCRIPTIONS_PER_TENANT }, (_, s) => `whsub_${String(100 + s + 1).padStart(26, '0')}`);
    // The middle of the history (15 days back), for the createdAfter and by-id scenarios.
    const middle = boundaryId('evt', first + Math.floor(DAYS / 2) * DAY_MS);
    const deepEvents = (await get(`/v0/events?limit=20`)).nextCursor;
    const scenarios = [
      { name: 'delivery log, first page (20)', paths: subs.map((s) => `/v0/webhook_subscriptions/${s}/deliveries`) },
      { name: 'events, first page (20)', paths: ['/v0/events'] },
      { name: 'events, second page (cursor)', paths: [`/v0/events?cursor=${deepEvents}`] },
      { name: 'events, type filter', paths: ['/v0/events?type=page.version.created'] },
      { name: 'events, createdAfter 15 days ago', paths: [`/v0/events?createdAfter=${new Date(first + Math.floor(DAYS / 2) * DAY_MS).toISOString()}`] },
      { name: 'event by id, 15 days old', paths: [`/v0/events/${(await sql.query(`SELECT id FROM outbox_events WHERE tenant_id = $1 AND id >= $2 ORDER BY id LIMIT 1`, [tenant.id, middle])).rows[0].id}`] },
    ];
    // Interleaved rounds, medians: the machine's speed moves within a run (docs/performance.md).
    const specOf = (scenario) => ({ method: 'GET', url: `${BASE}${scenario.paths[0]}`, paths: scenario.paths, headers, duration: DURATION });
    for (const scenario of scenarios) {
      await get(scenario.paths[0]);
      runWrk({ ...specOf(scenario), duration: 1 });
    }
    const runs = new Map(scenarios.map((scenario) => [scenario.name, { max: [], half: [] }]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const scenario of scenarios) runs.get(scenario.name).max.push(runWrk(specOf(scenario)));
      for (const scenario of scenarios) {
        const rate = Math.max(1, Math.round(median(runs.get(scenario.name).max.map((r) => r.rps)) / 2));
        const half = runOpenLoop({ ...specOf(scenario), overallRate: rate, duration: Math.max(DURATION, 10) });
        runs.get(scenario.name).half.push({ ...half, rate });
        log(`  round ${round}/${ROUNDS} ${scenario.name}: max ${Math.round(runs.get(scenario.name).max.at(-1).rps)} req/s; at ${rate} req/s p50 ${half.p50Ms} ms, p99 ${half.p99Ms} ms`);
      }
    }
    for (const scenario of scenarios) {
      const { max, half } = runs.get(scenario.name);
      const row = {
        name: scenario.name,
        maxRps: Math.round(median(max.map((r) => r.rps))),
        halfRps: half.at(-1).rate,
        p50Ms: median(half.map((r) => r.p50Ms)),
        p99Ms: median(half.map((r) => r.p99Ms)),
        p99MsEachRound: half.map((r) => r.p99Ms),
        errors: [...max, ...half].reduce((sum, r) => sum + r.errors, 0),
      };
      results.push(row);
      log(`${row.name}: max ${row.maxRps} req/s; at ${row.halfRps} req/s p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms (rounds ${row.p99MsEachRound.join(', ')}; ${row.errors} errors)`);
    }
  } finally {
    services.killAll();
    await sql.end();
  }
  const out = { at: new Date().toISOString(), build: history ? 'history kept by day' : 'one table each (before issue 44)', days: DAYS, events: Number(counts.events), deliveries: Number(counts.deliveries), attempts: Number(counts.attempts), scenarios: results };
  writeFileSync(join(ROOT, 'bench', 'results', history ? 'history.json' : 'history-before.json'), `${JSON.stringify(out, null, 2)}\n`);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** A new database of the history, seeded day by day; the API started on it. */
async function seed(sql, services, today) {
  const { MikroORM } = require('@mikro-orm/postgresql');
  const { createOrmConfig } = require(join(ROOT, 'dist/infrastructure/persistence/connection/mikro-orm.config.js'));
  const { migrate } = require(join(ROOT, 'dist/infrastructure/persistence/migrations/migrate.js'));
  const history = historyTables();
  log(`history: a database of ${DAYS} days, ${ATTEMPTS.toLocaleString('en-US')} attempts (${DB_URL})`);
  await recreateDatabase(DB_URL);
  const orm = await MikroORM.init(createOrmConfig(DB_URL, 2));
  await migrate(orm);
  await orm.close(true);
  await sql.connect();
  await sql.query('SET synchronous_commit = off');

  // As after 30 days of running: a day each, and `_before` below them.
  const first = today - DAYS * DAY_MS;
  if (history) await layOutPastDays(sql, history, DAYS, today);

  const tenant = { id: cli(['tenant:create', '--name', 'history']).tenantId };
  const { apiKey } = cli(['api-key:create', '--tenant', tenant.id]);
  const headers = { 'x-api-key': apiKey };
  await services.startService('api', 0, { SERVICE_ROLE: 'api' });
  // One subscription made through the API: its secret, encrypted with the service's key, serves the seeded ones.
  const made = await fetch(`${BASE}/v0/webhook_subscriptions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/history', events: ['page.version.created'] }),
  });
  if (made.status !== 201) throw new Error(`subscription: ${made.status} ${await made.text()}`);
  const [{ secret }] = (await sql.query(`SELECT signing_secret_encrypted AS secret FROM webhook_subscriptions LIMIT 1`)).rows;
  await sql.query(`INSERT INTO tenants (id, name, created_at) SELECT 'tenant_' || lpad(t::text, 26, '0'), 'other ' || t, now() FROM generate_series(2, $1) t`, [TENANTS]);
  const tenantOf = (t) => `CASE WHEN ${t} = 1 THEN '${tenant.id}' ELSE 'tenant_' || lpad((${t})::text, 26, '0') END`;
  await sql.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     SELECT 'whsub_' || lpad((t * 100 + s)::text, 26, '0'), ${tenantOf('t')}, 'http://127.0.0.1:9/' || t || '/' || s, '{page.version.created}', true, $3, now(), now()
     FROM generate_series(1, $1) t, generate_series(1, $2) s`,
    [TENANTS, SUBSCRIPTIONS_PER_TENANT, secret],
  );

  const events = Math.round(ATTEMPTS / (FAN_OUT * ATTEMPTS_PER_DELIVERY));
  // Where the build keeps feed positions: a table of their own (Migration20261129100000), or the event row.
  const exists = async (relation) => (await sql.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [relation])).rows[0].found;
  const feedTable = await exists('event_feed');
  const perDay = Math.ceil(events / DAYS);
  const started = Date.now();
  for (let d = 0; d < DAYS; d++) {
    const dayMs = first + d * DAY_MS;
    // The day's events, spread over it, round the tenants; ids in their own time (the rest of the suffix their number).
    await sql.query(
      `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at${feedTable ? '' : ', position'})
       SELECT 'evt_' || ${TIME_CHARS} || lpad(n::text, 16, '0'), ${tenantOf('(n % ' + TENANTS + ') + 1')}, 'page.version.created',
              '{"type":"page.version.created","data":{"pageId":"pagevar_01jdhistory000000000000000","version":' || n || ',"title":"A landing page version of some length"}}',
              to_timestamp(ms / 1000.0), to_timestamp(ms / 1000.0)${feedTable ? '' : ', n'}
       FROM (SELECT $1::bigint * $2::bigint + i AS n, $3::bigint + (i * 86400000::bigint / $2) AS ms FROM generate_series(0, $2 - 1) i) e`,
      [d, perDay, dayMs],
    );
    // An event's number, its feed position, is the end of its id.
    if (feedTable) {
      await sql.query(
        `INSERT INTO event_feed (event_id, tenant_id, type, created_at, position, published_at)
         SELECT id, tenant_id, type, created_at, substr(id, 15)::bigint, published_at FROM outbox_events WHERE id >= $1 AND id < $2`,
        [boundaryId('evt', dayMs), boundaryId('evt', dayMs + DAY_MS)],
      );
    }
    await sql.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, finished_at, last_status_code)
       SELECT 'whdlv_' || substr(e.id, 5, 10) || lpad((e.position * 10 + f)::text, 16, '0'), e.tenant_id,
              'whsub_' || lpad((((e.position % ${TENANTS}) + 1) * 100 + ((e.position + f) % ${SUBSCRIPTIONS_PER_TENANT}) + 1)::text, 26, '0'),
              e.id, e.type, CASE WHEN (e.position + f) % 50 = 0 THEN 'failed' ELSE 'delivered' END, ${ATTEMPTS_PER_DELIVERY}, NULL, e.created_at, e.created_at, e.created_at, 200
       FROM (SELECT *, substr(id, 15)::bigint AS position FROM outbox_events WHERE id >= $1 AND id < $2) e, generate_series(0, ${FAN_OUT - 1}) f`,
      [boundaryId('evt', dayMs), boundaryId('evt', dayMs + DAY_MS)],
    );
    await sql.query(
      `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
       SELECT 'whatt_' || substr(d.id, 7, 10) || lpad((substr(d.id, 17)::bigint * 10 + k)::text, 16, '0'), d.tenant_id, d.id, d.subscription_id, d.event_id, d.event_type, k,
              CASE WHEN k = ${ATTEMPTS_PER_DELIVERY} THEN 200 ELSE 503 END, 40, d.created_at
       FROM webhook_deliveries d, generate_series(1, ${ATTEMPTS_PER_DELIVERY}) k WHERE d.event_id >= $1 AND d.event_id < $2`,
      [boundaryId('evt', dayMs), boundaryId('evt', dayMs + DAY_MS)],
    );
    log(`  day ${d + 1}/${DAYS}: ${((d + 1) * perDay).toLocaleString('en-US')} events, ${((d + 1) * perDay * FAN_OUT * ATTEMPTS_PER_DELIVERY).toLocaleString('en-US')} attempts (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  const last = (await sql.query(`SELECT max(substr(id, 15)::bigint) AS n FROM outbox_events`)).rows[0].n;
  if (await exists('event_feed_positions')) await sql.query(`SELECT setval('event_feed_positions', $1)`, [last]);
  else await sql.query(`UPDATE event_feed_counter SET last_position = $1`, [last]);
  log('  VACUUM ANALYZE…');
  await sql.query(`VACUUM ANALYZE outbox_events, webhook_deliveries, webhook_delivery_attempts${feedTable ? ', event_feed' : ''}`);
  return { tenant, apiKey, first };
}

/** The build's module of the history's days; null in a build from before history was kept by day (a baseline). */
function historyTables() {
  const file = join(ROOT, 'dist/infrastructure/persistence/history/history-tables.js');
  return existsSync(file) ? require(file) : null;
}

main().then(
  () => process.exit(0),
  (error) => {
    log(error.stack ?? String(error));
    process.exit(1);
  },
);
