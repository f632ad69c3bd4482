// What one delivery of a webhook drain costs the machine, measured around the drain (bench/run.mjs):
// CPU by process (the worker, the receiver, PostgreSQL, Redis, the rest) from /proc, Redis
// commands from INFO commandstats and PostgreSQL transactions from pg_stat_database. It is the
// profile that says which part limits the drain, beside the same figures for the BullMQ-only
// ceiling.
import { Redis } from 'ioredis';
import pg from 'pg';
import { cpuSecondsBetween, helperSecondsBetween, snapshot, threadTicks } from './cpu-share.mjs';

/**
 * Starts counting; `finish(deliveries)` returns the costs per delivery since then. `redisUrls`:
 * the servers of a Redis Cluster instead of `redisUrl`, whose masters' commands are counted (a
 * replica's would count each write twice).
 */
export async function startDrainCost({ databaseUrl, redisUrl, redisUrls, pids }) {
  const servers = (redisUrls ?? [redisUrl]).map((url) => new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 }));
  await Promise.all(servers.map((server) => server.connect()));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const counters = async () => {
    const redis = sumCalls(await Promise.all(servers.map(redisCalls)));
    return { redisCalls: [...redis.values()].reduce((a, b) => a + b, 0), redisByCommand: redis, transactions: await transactions(db), walBytes: await walBytes(db) };
  };
  // With pg_stat_statements loaded on the server (optional: shared_preload_libraries), the
  // statements the drain ran.
  const statements = await db
    .query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
    .then(() => db.query('SELECT pg_stat_statements_reset()'))
    .then(
      () => true,
      () => false,
    );
  const before = { cpu: snapshot(), workerThreads: pids?.worker ? threadTicks(pids.worker) : null, ...(await counters()), at: Date.now() };
  return {
    async finish(deliveries) {
      const cpu = snapshot();
      // Of the worker's CPU, what V8's helper threads (the collector's) spent: a CPU profile of the worker does not see it.
      const workerHelpers = before.workerThreads ? helperSecondsBetween(before.workerThreads, threadTicks(pids.worker)) : null;
      const seconds = (Date.now() - before.at) / 1000;
      // PostgreSQL's backends report their statistics at most once a second: wait for the last.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const after = await counters();
      const top = statements ? await topStatements(db, deliveries) : undefined;
      const statementCount = statements ? await statementsRun(db) : undefined;
      await Promise.all(servers.map((server) => server.quit()));
      await db.end();
      const byRole = {};
      const others = [];
      const postgresParts = new Map();
      for (const [group, used] of cpuSecondsBetween(before.cpu, cpu)) {
        const role = roleOf(group, pids);
        byRole[role] = (byRole[role] ?? 0) + used;
        if (role === 'other' && used > 0) others.push(`${group} ${Math.round((used * 1e6) / deliveries)}`);
        // PostgreSQL's share by process kind: the drain's own backends, or autovacuum, the WAL
        // writer, the checkpointer (autovacuum is on in a recorded run, off on this host's server).
        const kind = group.replace(/^postgres: /, '');
        if (role === 'postgres' && used > 0) postgresParts.set(kind, (postgresParts.get(kind) ?? 0) + used);
      }
      const perDeliveryUs = Object.fromEntries(Object.entries(byRole).map(([role, used]) => [role, Math.round((used * 1e6) / deliveries)]));
      return {
        seconds: Math.round(seconds * 10) / 10,
        cpuUsPerDelivery: perDeliveryUs,
        cpuUsPerDeliveryTotal: Object.values(perDeliveryUs).reduce((a, b) => a + b, 0),
        ...(workerHelpers === null ? {} : { workerHelperUsPerDelivery: Math.round((workerHelpers * 1e6) / deliveries) }),
        coresBusy: Math.round((Object.values(byRole).reduce((a, b) => a + b, 0) / seconds) * 100) / 100,
        redisCommandsPerDelivery: Math.round(((after.redisCalls - before.redisCalls) / deliveries) * 100) / 100,
        redisCommandsTop: topCommands(before.redisByCommand, after.redisByCommand, deliveries),
        postgresTransactionsPerDelivery: Math.round(((after.transactions - before.transactions) / deliveries) * 100) / 100,
        ...(statementCount === undefined ? {} : { postgresStatementsPerDelivery: Math.round((statementCount / deliveries) * 100) / 100 }),
        walBytesPerDelivery: Math.round((after.walBytes - before.walBytes) / deliveries),
        // The largest of "other" (kernel threads, the bench's own process), µs per delivery.
        otherLargest: others.slice(0, 4),
        postgresUsByKind: Object.fromEntries([...postgresParts].sort((a, b) => b[1] - a[1]).map(([kind, used]) => [kind, Math.round((used * 1e6) / deliveries)]).filter(([, us]) => us > 0)),
        ...(top ? { postgresStatements: top } : {}),
      };
    },
  };
}

/** One line of a cost, for the run's log. */
export function describeCost(cost) {
  const cpu = Object.entries(cost.cpuUsPerDelivery)
    .filter(([, us]) => us > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([role, us]) => `${role} ${us}`)
    .join(', ');
  const statements = (cost.postgresStatements ?? []).map((s) => `\n      ${String(s.execUsPerDelivery).padStart(4)} µs  ${s.callsPerDelivery} calls  ${s.rowsPerCall} rows/call  ${s.query}`).join('');
  const helpers = cost.workerHelperUsPerDelivery === undefined ? '' : `, of the worker's: V8 helper threads ${cost.workerHelperUsPerDelivery}`;
  const postgresKinds = Object.entries(cost.postgresUsByKind ?? {}).map(([kind, us]) => `${kind} ${us}`).join(', ');
  const postgres = postgresKinds ? `; of PostgreSQL's: ${postgresKinds}` : '';
  const commands = cost.redisCommandsTop?.length ? ` (${cost.redisCommandsTop.map(([command, n]) => `${command} ${n}`).join(', ')})` : '';
  return `CPU per delivery ${cost.cpuUsPerDeliveryTotal} µs (${cpu}${helpers}${postgres}; other: ${cost.otherLargest.join(', ')}); ${cost.coresBusy} cores busy; Redis commands/delivery ${cost.redisCommandsPerDelivery}${commands}; PostgreSQL ${cost.postgresStatementsPerDelivery === undefined ? '' : `statements/delivery ${cost.postgresStatementsPerDelivery}, `}transactions/delivery ${cost.postgresTransactionsPerDelivery}; WAL bytes/delivery ${cost.walBytesPerDelivery}${statements}`;
}

function roleOf(group, pids) {
  for (const [role, pid] of Object.entries(pids)) if (group.endsWith(`(pid ${pid})`)) return role;
  if (group.startsWith('postgres')) return 'postgres';
  if (group === 'redis') return 'redis';
  return 'other';
}

/** Calls by command on one server (a script's own calls counted as theirs); none for a replica. */
async function redisCalls(redis) {
  if (!(await redis.info('replication')).includes('role:master')) return new Map();
  const info = await redis.info('commandstats');
  return new Map([...info.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)].map((m) => [m[1], Number(m[2])]));
}

function sumCalls(maps) {
  const sum = new Map();
  for (const map of maps) for (const [command, calls] of map) sum.set(command, (sum.get(command) ?? 0) + calls);
  return sum;
}

/** The commands called most during the drain, per delivery: six, or BENCH_REDIS_TOP of them. */
function topCommands(before, after, deliveries) {
  return [...after]
    .map(([command, calls]) => [command, Math.round(((calls - (before.get(command) ?? 0)) / deliveries) * 100) / 100])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.BENCH_REDIS_TOP ?? 6));
}

/** The statements that took most of PostgreSQL's time: calls and execution µs per delivery. */
async function topStatements(db, deliveries) {
  const { rows } = await db.query(
    `SELECT calls, total_exec_time, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
     FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY total_exec_time DESC LIMIT 8`,
  );
  return rows.map((r) => ({ callsPerDelivery: Math.round((r.calls / deliveries) * 1000) / 1000, execUsPerDelivery: Math.round((r.total_exec_time * 1000) / deliveries), rowsPerCall: Math.round(r.rows / r.calls), query: r.query }));
}

/**
 * Statements the database ran since the reset, all of them: the drain's, and the few of this
 * counter's own (its two snapshots' reads), which are left in (a few against tens of thousands).
 */
async function statementsRun(db) {
  const { rows } = await db.query('SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())');
  return Number(rows[0].n);
}

/** Bytes of WAL the server has written (pg_stat_wal, PostgreSQL 14+): what a replica and the disk take per unit of work. */
async function walBytes(db) {
  const { rows } = await db.query('SELECT wal_bytes::bigint AS n FROM pg_stat_wal').catch(() => ({ rows: [{ n: 0 }] }));
  return Number(rows[0].n);
}

async function transactions(db) {
  const { rows } = await db.query('SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()');
  return Number(rows[0].n);
}
