// The processes and the database of a run: the seed, the API and worker processes started from
// the production build, helpers run beside them, and the statements a run sends between
// measurements. Every process started is stopped when the run ends, whatever happens.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { recreateDatabase } from './database.mjs';

export const ROOT = join(import.meta.dirname, '..', '..');
export const PORT = 3917;
export const BASE = `http://127.0.0.1:${PORT}`;
/** Where the API process serves baseline (c), the bare node:http floor (interfaces/bench/bare-floor.server.ts). */
export const FLOOR_PORT = 3920;
const NODE = process.execPath;
// The services run with the memory settings of `npm start` and the Dockerfile.
export const SERVICE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=16', '--no-allocation-site-pretenuring'];

/**
 * BENCH_<ROLE>_NODE_FLAGS (api, worker, ceiling): extra node flags for looking into a run, e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof" (the profile is written when the process exits).
 */
export function extraNodeFlags(role) {
  return (process.env[`BENCH_${role.toUpperCase()}_NODE_FLAGS`] ?? '').split(' ').filter(Boolean);
}
const KEY = Buffer.alloc(32, 42).toString('base64');

export function createServices(options, log) {
  const children = new Set();
  const env = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    SECRETS_ENCRYPTION_KEY: KEY,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    METRICS_ENABLED: 'false',
    RATE_LIMIT_MAX: '1000000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NODE_ENV: 'production',
    QUEUE_PREFIX: '{bench}',
  };

  /**
   * A Node script as a process of the run, on `core` when the run pins (--pin), with `niceness`
   * (a command prefix such as nice -n -20) only then too.
   */
  const node = (core, file, argv, extraEnv = {}, stdio = ['ignore', 'pipe', 'inherit'], nodeFlags = [], niceness = []) => {
    const command = options.hostChanges.pin ? ['taskset', '-c', String(core), ...niceness, NODE] : [NODE];
    const child = spawn(command[0], [...command.slice(1), ...nodeFlags, file, ...argv], { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  };

  const runStatement = async (sql) => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const countOf = async (sql) => (await runStatement(sql)).rows[0].n;

  const cli = (argv, inherit = false) => {
    const result = spawnSync(NODE, [join(ROOT, 'dist', 'cli.js'), ...argv, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: options.databaseUrl, SECRETS_ENCRYPTION_KEY: KEY, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', inherit ? 'inherit' : 'pipe'],
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`cli ${argv[0]} failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim().split('\n').pop());
  };

  return {
    node,
    runStatement,
    countOf,

    /** The data set, seeded once; its answer (it holds the sample API key) kept in bench/data/ for --reuse. */
    async seedOnce() {
      const saved = join(ROOT, 'bench', 'data', `seed-${options.quick ? 'quick' : 'full'}.json`);
      if (options.reuse && existsSync(saved)) {
        log(`reusing the data set of ${saved}`);
        return JSON.parse(readFileSync(saved, 'utf8'));
      }
      log(`seeding ${options.databaseUrl} (${options.seedSizes.join(' ')})…`);
      await recreateDatabase(options.databaseUrl);
      const seed = cli(['seed:bulk', ...options.seedSizes], true);
      mkdirSync(join(ROOT, 'bench', 'data'), { recursive: true });
      writeFileSync(saved, JSON.stringify(seed));
      return seed;
    },

    // The measurements must not pay for the seed's aftermath: the statistics and visibility map
    // of a table that autovacuum has visited, and the checkpoint of the seed's write-ahead log
    // (otherwise it runs during the first scenarios, and every commit waits behind its writes).
    async settleDatabase() {
      const started = Date.now();
      await runStatement('VACUUM (ANALYZE)');
      await runStatement('CHECKPOINT');
      log(`database vacuumed, analysed and checkpointed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    },

    // Before each measured round: the dirty pages of what ran before are written out now, not by
    // the checkpointer in the middle of the next measurement, where its writes share the disk
    // with every commit's flush.
    checkpoint: () => runStatement('CHECKPOINT'),
    // Tables written just before a measurement, vacuumed now rather than by autovacuum during it.
    vacuum: (tables) => runStatement(`VACUUM (ANALYZE) ${tables.join(', ')}`),

    /** Polls a count query every `everyMs` until it is 0; `check` may throw to give up. */
    async untilNoneLeft(sql, everyMs, check = () => {}) {
      while ((await countOf(sql)) > 0) {
        check();
        await new Promise((r) => setTimeout(r, everyMs));
      }
    },

    /** The production build as `role` (api, worker), its JSON logs in bench/results/<role>.log; an API once it is ready. */
    async startService(role, core, extra = {}) {
      const logFile = openSync(join(ROOT, 'bench', 'results', `${role}.log`), 'w');
      const extraFlags = extraNodeFlags(role);
      // The API mounts the baselines, which the service refuses under NODE_ENV=production
      // (baseline (c) answers without a key): it runs as development, which in this service only
      // lets a missing SECRETS_ENCRYPTION_KEY be generated (one is given). The worker stays production.
      const baselines = role === 'api' ? { BENCH_BASELINES: 'true', BENCH_FLOOR_PORT: String(FLOOR_PORT), NODE_ENV: 'development' } : {};
      // An API left running by an earlier run would answer in this one's place (the new one
      // exits on EADDRINUSE, and the readiness probe is answered by the old build).
      if (role === 'api' && (await fetch(`${BASE}/health/ready`).then(() => true, () => false))) {
        throw new Error(`port ${PORT} is taken by another process (an API left behind by an earlier run?)`);
      }
      const child = node(core, join(ROOT, 'dist', 'main.js'), [], { ...env, SERVICE_ROLE: role, PORT: String(PORT), ...baselines, ...extra }, ['ignore', logFile, 'inherit'], [...SERVICE_FLAGS, ...extraFlags]);
      if (role === 'worker') return child;
      for (let i = 0; i < 200; i++) {
        if (child.exitCode !== null) throw new Error(`the API exited at start (bench/results/${role}.log)`);
        if (await fetch(`${BASE}/health/ready`).then((r) => r.ok, () => false)) return child;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('API did not start');
    },

    // SIGTERM and wait for the exit (at most 15 s): a service finishes its shutdown, and writes
    // its CPU profile when one was asked for, before the run's clean-up kills what is left.
    stopProcess(child) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, 15_000);
        child.once('exit', () => (clearTimeout(timer), resolve()));
        child.kill('SIGTERM');
      });
    },

    /** Samples a process's resident memory every 200 ms; the returned function stops and gives the peak (MB). */
    sampleRss(pid) {
      let max = 0;
      const timer = setInterval(() => (max = Math.max(max, rssMb(pid))), 200);
      return () => {
        clearInterval(timer);
        return Math.max(max, rssMb(pid));
      };
    },

    // The disk's own flush latency at a commit-like rate, before any load (bench/probes/fsync-probe.mjs):
    // a durable write cannot answer faster than its commit's flush, so this bounds every write's p99.
    probeDiskFlush() {
      const dataDirectory = process.env.BENCH_PG_DATA_PARENT ?? '/var/lib/postgresql';
      if (!existsSync(dataDirectory)) return null;
      const run = spawnSync(NODE, [join(ROOT, 'bench', 'probes', 'fsync-probe.mjs'), options.quick ? '3' : '10', '300', dataDirectory], { encoding: 'utf8' });
      if (run.status !== 0) return null;
      const result = JSON.parse(run.stdout.trim());
      log(`disk flush (8 KB + fdatasync, 300/s, ${dataDirectory}): p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  max ${result.maxMs} ms  over 50 ms ${result.over50Ms}  arrivals waiting > 50 ms ${Math.round(result.shareOfArrivalsWaitingOver50Ms * 1000) / 10} %`);
      return result;
    },

    /** UTM values at scale (bench/utm-at-scale.mjs): the insert cost as a group's values grow. */
    utmAtScale() {
      const run = spawnSync(NODE, [join(ROOT, 'bench', 'utm-at-scale.mjs'), '--json', ...(options.quick ? ['--sizes', '10,10000', '--sessions', '100'] : [])], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
      if (run.status !== 0) throw new Error('bench/utm-at-scale.mjs failed');
      return JSON.parse(run.stdout.trim().split('\n').pop());
    },

    killAll() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
  } catch {
    return 0;
  }
}
