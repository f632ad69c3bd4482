import { join } from 'node:path';

const load = () => import(join(__dirname, '..', '..', '..', 'bench', 'lib', 'options.mjs'));

describe('bench options', () => {
  it('changes nothing on the host unless asked, and records only a full run', async () => {
    const { parseOptions } = await load();
    const full = parseOptions([]);
    expect(full.hostChanges).toEqual({ pin: false, autovacuum: false, statements: false });
    expect(full).toMatchObject({ quick: false, durationSeconds: 5, rounds: 3, backlog: 20000, recorded: true, webhooks: true });
    expect(parseOptions(['--pin', '--autovacuum']).hostChanges).toEqual({ pin: true, autovacuum: true, statements: false });
    expect(parseOptions(['--statements']).hostChanges).toEqual({ pin: false, autovacuum: false, statements: true });
    expect(parseOptions(['--quick'])).toMatchObject({ durationSeconds: 2, rounds: 1, backlog: 2000, recorded: false });
    expect(parseOptions(['--only', 'brands']).recorded).toBe(false);
    expect(parseOptions(['--no-webhooks']).recorded).toBe(false);
  });

  it('refuses unknown options and bad numbers, naming them', async () => {
    const { parseOptions, OptionsError } = await load();
    expect(() => parseOptions(['--autocannon'])).toThrow(new OptionsError('unknown option --autocannon (see the head of bench/lib/options.mjs)'));
    expect(() => parseOptions(['--rounds', '0'])).toThrow('--rounds must be a whole number of at least 1');
    expect(() => parseOptions(['--backlog'])).toThrow('--backlog needs a value');
  });

  it('takes the database and Redis from the environment', async () => {
    const { parseOptions } = await load();
    const options = parseOptions([], { BENCH_DATABASE_URL: 'postgres://127.0.0.1:5433/x', BENCH_REDIS_URL: 'redis://127.0.0.1:6380', WEBHOOK_ATTEMPTS_PER_JOB: '8' });
    expect(options).toMatchObject({ databaseUrl: 'postgres://127.0.0.1:5433/x', redisUrl: 'redis://127.0.0.1:6380', attemptsPerJob: 8 });
  });
});
