import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { sqlParams, sqlQuery, sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { testDatabaseUrl } from '../support/test-database-url';

// The one way adapters run their own SQL: on the unit of work's connection inside one, as a
// prepared statement on the pool outside. A pool of one connection makes "the pool" observable.
let orm: MikroORM;
beforeAll(async () => {
  orm = await MikroORM.init(createOrmConfig(testDatabaseUrl(), 1));
});
afterAll(() => orm.close(true));

const TENANT_BY_ID = 'SELECT id FROM tenants WHERE id = $1';

describe('sqlQuery', () => {
  it("runs inside a unit of work on its connection: it sees the work's own writes, and a rolled-back work leaves nothing", async () => {
    const id = newTypeId('tenant');
    const seenInside = await orm.em.fork().transactional(async (em) => {
      await sqlRows(em, 'INSERT INTO tenants (id, name, created_at) VALUES ($1, $2, $3)', [id, 'uow', new Date()]);
      return sqlRows(em, TENANT_BY_ID, [id]);
    });
    expect(seenInside).toEqual([{ id }]);
    expect(await sqlRows(orm.em.fork(), TENANT_BY_ID, [id])).toEqual([{ id }]);

    const rolledBack = newTypeId('tenant');
    await expect(
      orm.em.fork().transactional(async (em) => {
        await sqlRows(em, 'INSERT INTO tenants (id, name, created_at) VALUES ($1, $2, $3)', [rolledBack, 'uow', new Date()]);
        throw new Error('the work fails');
      }),
    ).rejects.toThrow('the work fails');
    expect(await sqlRows(orm.em.fork(), TENANT_BY_ID, [rolledBack])).toEqual([]);
  });

  it('runs outside one as a prepared statement on the pool, named after its text, and counts the rows it changed', async () => {
    const em = orm.em.fork();
    await sqlRows(em, TENANT_BY_ID, [newTypeId('tenant')]);
    const prepared = await sqlRows<{ name: string }>(em, 'SELECT name FROM pg_prepared_statements WHERE statement = $1', [TENANT_BY_ID]);
    expect(prepared).toHaveLength(1);
    expect(prepared[0].name).toMatch(/^s_[0-9a-f]{24}$/);
    const id = newTypeId('tenant');
    await sqlRows(em, 'INSERT INTO tenants (id, name, created_at) VALUES ($1, $2, $3)', [id, 'count', new Date()]);
    expect((await sqlQuery(em, 'UPDATE tenants SET name = $2 WHERE id = $1', [id, 'counted'])).rowCount).toBe(1);
    expect((await sqlQuery(em, 'UPDATE tenants SET name = $2 WHERE id = $1', [newTypeId('tenant'), 'none'])).rowCount).toBe(0);
  });

  it('numbers the values of a text with optional parts in the order it places them', () => {
    const where = (after?: string) => {
      const p = sqlParams();
      return { text: `WHERE tenant_id = ${p('t')} ${after ? `AND id < ${p(after)} ` : ''}LIMIT ${p(21)}`, values: p.values };
    };
    expect(where('x')).toEqual({ text: 'WHERE tenant_id = $1 AND id < $2 LIMIT $3', values: ['t', 'x', 21] });
    expect(where()).toEqual({ text: 'WHERE tenant_id = $1 LIMIT $2', values: ['t', 21] });
  });
});
