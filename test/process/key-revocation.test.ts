import { builtCli } from '../support/cli';
import { ServiceProcess } from '../support/service-process';

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
    } finally {
      await Promise.all(apis.map((api) => api.stop()));
    }
  }, 60_000);
});
