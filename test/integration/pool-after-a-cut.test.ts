import { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { proxiedTestDatabase } from '../support/proxied-test-database';

// A transaction whose connection is cut cannot COMMIT or ROLLBACK, and Kysely releases a
// transaction's connection only after one of them succeeds: the pool kept the dead client checked
// out for ever, one slot fewer per database blip, and closing the ORM waited on it for ever.
// Real fault: the ORM reaches PostgreSQL through a loopback proxy that the test cuts.
describe('the pool after every connection is cut inside transactions', () => {
  it('gets its slots back, serves a full pool of queries again, and closes', async () => {
    const { proxy, url } = await proxiedTestDatabase();
    const orm = await MikroORM.init(createOrmConfig(url, 2));
    const pool = (await orm.em.getConnection().getNativeClient()) as Pool;
    try {
      let inside!: () => void;
      const bothInside = new Promise<void>((resolve) => {
        let n = 0;
        inside = () => ++n === 2 && resolve();
      });
      // Two transactions, each holding a pooled connection, wait on a statement when the cut comes.
      const transactions = [1, 2].map(() =>
        orm.em.fork().transactional(async (em) => {
          await sqlRows(em, 'SELECT 1');
          inside();
          await sqlRows(em, 'SELECT pg_sleep(30)');
        }),
      );
      await bothInside;
      const bothRemoved = new Promise<void>((resolve) => {
        let n = 0;
        pool.on('remove', () => ++n === 2 && resolve());
      });
      await proxy.stop();
      const outcomes = await Promise.allSettled(transactions);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
      await proxy.start(proxy.port);
      // The dead clients leave the pool (none is still checked out), and both slots serve again.
      await bothRemoved;
      expect(pool.totalCount - pool.idleCount).toBe(0);
      const again = await Promise.all([1, 2].map(() => orm.em.fork().transactional((em) => sqlRows<{ n: number }>(em, 'SELECT 1 AS n'))));
      expect(again).toEqual([[{ n: 1 }], [{ n: 1 }]]);
    } finally {
      await orm.close(true);
      await proxy.stop();
    }
  });
});
