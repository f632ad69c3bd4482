import { builtCli } from '../support/cli';
import { ServiceProcess } from '../support/service-process';
import { openTestOrm, sqlIn } from '../support/database';

/** How many of these processes are registered as key cache holders (hostname:pid:random). */
async function holdersOf(pids: number[]): Promise<number> {
  const orm = await openTestOrm();
  try {
    const rows = await sqlIn<{ holder: string }>(orm, 'SELECT holder FROM api_key_cache_holders');
    return rows.filter((row) => pids.includes(Number(row.holder.split(':')[1]))).length;
  } finally {
    await orm.close(true);
  }
}

// Issue 31: API processes answer a key seen before from the key cache in Redis, without
// PostgreSQL; a revocation by the operator's CLI (another process) must still be refused on the
// key's next request in every one of them. Built processes, the local Redis, as production runs.
describe('revoking a key that API processes have cached', () => {
  it('is refused on its next request by every API process once the CLI has revoked it', async () => {
    const apis = [new ServiceProcess({ REDIS_URL: 'redis://127.0.0.1:6379' }), new ServiceProcess({ REDIS_URL: 'redis://127.0.0.1:6379' })];
    try {
      const bases = await Promise.all(apis.map((api) => api.baseUrl()));
      const cli = (...argv: string[]) => {
        const run = builtCli([...argv, '--json'], { REDIS_URL: 'redis://127.0.0.1:6379' });
        expect(run.code).toBe(0);
        return JSON.parse(run.stdout);
      };
      const { tenantId } = cli('tenant:create', '--name', 'Revoked');
      const { apiKey, apiKeyId } = cli('api-key:create', '--tenant', tenantId);
      const status = (base: string) => fetch(`${base}/v0/brands`, { headers: { 'x-api-key': apiKey } }).then((res) => res.status);
      // Seen by both: cached.
      for (let i = 0; i < 2; i++) expect(await Promise.all(bases.map(status))).toEqual([200, 200]);
      expect(cli('api-key:revoke', '--id', apiKeyId)).toEqual({ apiKeyId, revokedAt: expect.any(String) });
      expect(await Promise.all(bases.map(status))).toEqual([401, 401]);
      // Each registered as a holder of the key cache while it runs (a revocation from where the
      // cache is out of reach reads this: test/integration/revocation-without-the-cache.test.ts).
      expect(await holdersOf(apis.map((api) => api.pid))).toBe(2);
    } finally {
      await Promise.all(apis.map((api) => api.stop()));
    }
    // A clean stop takes the registration away.
    expect(await holdersOf(apis.map((api) => api.pid))).toBe(0);
  }, 60_000);
});
