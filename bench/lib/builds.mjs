// Another build beside this one, for the benches that compare two builds in one run (drain.mjs,
// endpoints-ab.mjs): a build is a directory holding its own dist/ (git worktree add <dir> <commit>;
// ln -s node_modules; npm run build). Its processes start from its own directory, its database is
// migrated and seeded by its own CLI, and a build that keeps history by day gets the days before
// today that a deployment would have.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { layOutPastDays } from './past-days.mjs';
import { SERVICE_FLAGS } from './services.mjs';

export const BENCH_KEY = Buffer.alloc(32, 42).toString('base64');

/** The environment every build's processes share; `extra` adds the build's own. */
export function buildEnv(extra) {
  return { SECRETS_ENCRYPTION_KEY: BENCH_KEY, LOG_LEVEL: 'warn', METRICS_ENABLED: 'false', RATE_LIMIT_MAX: '1000000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', NODE_ENV: 'production', ...extra };
}

/** The processes of a run: each started from a build's directory, all killed when the run ends. */
export function processes() {
  const children = new Set();
  const stopAll = () => children.forEach((child) => child.kill('SIGKILL'));
  process.on('exit', stopAll);
  return {
    stopAll,
    /** A script of `root` (a service with the memory settings of `npm start`). */
    start(root, file, env, stdio = ['ignore', 'pipe', 'inherit'], flags = []) {
      const child = spawn(process.execPath, [...SERVICE_FLAGS, ...flags, join(root, file)], { cwd: root, env: { ...process.env, ...env }, stdio });
      children.add(child);
      child.on('exit', () => children.delete(child));
      return child;
    },
    /** SIGTERM, then SIGKILL after 15 s. */
    stop(child) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((done) => {
        const timer = setTimeout(() => (child.kill('SIGKILL'), done()), 15_000);
        child.once('exit', () => (clearTimeout(timer), done()));
        child.kill('SIGTERM');
      });
    },
  };
}

/** Waits for `base`/health/ready (30 s at most). */
export async function untilReady(base, what) {
  for (let i = 0; !(await fetch(`${base}/health/ready`).then((r) => r.ok, () => false)); i++) {
    if (i > 300) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Seeds the build's database with its own CLI (`seed:bulk` with `sizes`); answers the seed's sample ids and key. */
export function seedBuild(root, env, sizes, name) {
  const seeded = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'seed:bulk', ...sizes, '--json'], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (seeded.status !== 0) throw new Error(`seed of ${name} failed (exit ${seeded.status})`);
  return JSON.parse(seeded.stdout.trim().split('\n').pop()).sample;
}

/**
 * A build that keeps history by day is given `days` days before today, as a deployment that has
 * run that long (each statement's plan spans them all). Answers the days in all (0: history not
 * kept by day).
 */
export async function pastDaysOf(root, databaseUrl, days) {
  const file = join(root, 'dist/infrastructure/persistence/history/history-tables.js');
  if (!existsSync(file)) return 0;
  const history = createRequire(join(root, 'package.json'))(file);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await layOutPastDays(client, history, days);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'webhook_deliveries'::regclass`);
    return rows[0].n;
  } finally {
    await client.end();
  }
}
