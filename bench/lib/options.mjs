// `npm run bench` options. Pure: the argument list in, the run's settings out.
//   --quick          small data set and short runs (a smoke test of the harness, ~2 min)
//   --duration S     seconds per measurement (default 5; 2 with --quick)
//   --rounds N       interleaved rounds (default 3; 1 with --quick)
//   --reuse          keep the data set of the previous run of the same size (bench/data/)
//   --only TEXT      only the scenarios whose name contains TEXT (the baselines always run)
//   --no-webhooks    skip the webhook measurements
//   --backlog N      events in the webhook drain (default 20,000; 2,000 with --quick)
//   --report         only rewrite docs/performance.md and its chart from bench/results/latest.json
// Changes to the host, each off unless asked for (each is undone when the run ends):
//   --pin            API on core 0; PostgreSQL, Redis and the load generators on core 1 (taskset),
//                    the API's V8 helper threads on core 1, the open-loop generator at nice -20
//   --autovacuum     ALTER SYSTEM autovacuum = on for the run when the server has it off
//   --statements     load pg_stat_statements for the run when the server has not (a restart of
//                    PostgreSQL before the run and one after it), so the drains print their statements

import { readFlags } from './flags.mjs';

const KNOWN = new Set(['quick', 'duration', 'rounds', 'reuse', 'only', 'no-webhooks', 'backlog', 'report', 'pin', 'autovacuum', 'statements']);
const WITH_VALUE = new Set(['duration', 'rounds', 'only', 'backlog']);

export class OptionsError extends Error {}

export function parseOptions(argv, env = {}) {
  const given = readFlags(argv, { known: KNOWN, withValue: WITH_VALUE, optionsFile: 'bench/lib/options.mjs', fail: (message) => new OptionsError(message) });
  const quick = given.has('quick');
  const positive = (name, fallback) => {
    const value = Number(given.get(name) ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new OptionsError(`--${name} must be a whole number of at least 1`);
    return value;
  };
  const only = given.get('only') ?? '';
  const webhooks = !given.has('no-webhooks');
  return {
    quick,
    durationSeconds: positive('duration', quick ? 2 : 5),
    rounds: positive('rounds', quick ? 1 : 3),
    reuse: given.has('reuse'),
    only,
    webhooks,
    backlog: positive('backlog', quick ? 2000 : 20000),
    reportOnly: given.has('report'),
    hostChanges: { pin: given.has('pin'), autovacuum: given.has('autovacuum'), statements: given.has('statements') },
    // Only a full run is recorded in bench/results and docs/; a quick or partial one is kept in bench/data/.
    recorded: !quick && only === '' && webhooks,
    databaseUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_bench',
    redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    attemptsPerJob: Number(env.WEBHOOK_ATTEMPTS_PER_JOB ?? 4),
    seedSizes: quick
      ? ['--tenants', '10', '--brands', '10000', '--page-groups', '100', '--sessions', '100000', '--hot-group-share', '1', '--wide-utm-sessions', '100000', '--deliveries', '100000']
      : ['--tenants', '100', '--brands', '100000', '--page-groups', '1000', '--sessions', '1000000', '--hot-group-share', '1', '--wide-utm-sessions', '100000', '--deliveries', '1000000'],
  };
}
