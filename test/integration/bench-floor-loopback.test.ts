import { startBareFloor } from '../../src/interfaces/bench/bare-floor.server';
import { freePort } from '../support/ports';
import { testDatabaseUrl } from '../support/test-database-url';

// Baseline (c) of the bench lists any tenant's brands with no key: it listens on loopback only,
// whatever address the API itself is given (HOST is 0.0.0.0 by default). Its refusal under
// NODE_ENV=production is a configuration rule (test/unit/infrastructure/config).
describe('the bench’s bare floor server', () => {
  it('listens on 127.0.0.1 only, and answers there', async () => {
    const floor = await startBareFloor({ connectionString: testDatabaseUrl(), poolMax: 1, port: await freePort() });
    try {
      expect(floor.address.address).toBe('127.0.0.1');
      const res = await fetch(`http://127.0.0.1:${floor.address.port}/?tenant=tenant_none`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ items: [], hasMore: false });
    } finally {
      await floor.close();
    }
  });
});
