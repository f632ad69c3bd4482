import { benchPool } from '../../src/interfaces/bench/bench-pool';
import { proxiedTestDatabase } from '../support/proxied-test-database';

// The bench's baselines (b) and (c) run on pools of their own in the API's process. A connection
// that dies while idle in such a pool is reported as the pool's 'error' event, which ended the
// process when nobody listened. Real fault: the pool reaches PostgreSQL through a loopback proxy
// that the test cuts while the pool's one connection is idle.
describe('a bench baseline pool whose idle connection is cut', () => {
  it('drops the dead connection without ending the process and serves again once the database is back', async () => {
    const { proxy, url } = await proxiedTestDatabase();
    const pool = benchPool(url, 1);
    try {
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
      expect(pool.idleCount).toBe(1);
      // pg-pool drops the connection ('remove') and reports it ('error') in one call.
      const removed = new Promise<void>((resolve) => pool.once('remove', () => resolve()));
      await proxy.stop();
      await removed;
      expect(pool.totalCount).toBe(0);
      await proxy.start(proxy.port);
      expect((await pool.query<{ n: number }>('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
    } finally {
      await pool.end();
      await proxy.stop();
    }
  });
});
