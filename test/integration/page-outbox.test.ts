import { MikroORM } from '@mikro-orm/postgresql';
import { PageVersion } from '../../src/domain/page/page-version';
import { ConcurrentChangeError, NotFoundError } from '../../src/domain/shared/domain-error';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { SqlPageGroupRepository } from '../../src/infrastructure/persistence/repositories/sql-page-group.repository';
import { SqlPageRepository, SqlPageVersionRepository } from '../../src/infrastructure/persistence/repositories/sql-page.repository';
import { Client } from 'pg';
import { inContext, inUnitOfWork, openTestOrm, sqlIn } from '../support/database';
import { groupOfNewTenant as newGroup } from '../support/builders/stored';
import { eventually } from '../support/eventually';
import { testDatabaseUrl } from '../support/test-database-url';
import { aPage } from '../support/builders/aggregates';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

const count = async (sql: string, params: unknown[]) => Number((await sqlIn<{ n: string }>(orm, sql, params))[0].n);

const groupOfNewTenant = () => newGroup(orm, 'Outbox');

describe('page and outbox in one transaction', () => {
  it('commits the page, version 1, the outbox row and pagesCount together', async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = aPage(group);
    const eventId = firstVersion.peekEvents()[0].id;
    await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    expect(await count('SELECT count(*) AS n FROM pages WHERE id = ?', [page.id])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM page_versions WHERE id = ?', [firstVersion.id])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM outbox_events o JOIN outbox_unpublished q ON q.id = o.id WHERE o.id = ?', [eventId])).toBe(1);
    expect(await count('SELECT coalesce(sum(pages_count), 0) AS n FROM page_group_counters WHERE page_group_id = ?', [group.id])).toBe(1);
  });

  it("counts the page without rewriting the group's own row", async () => {
    // Migration...20261123000000: a page rewrites only the group's narrow counter row, so the
    // group row (platform objects and stored JSON) keeps its version and creations do not queue on it.
    const group = await groupOfNewTenant();
    const version = async () => (await sqlIn<{ v: string }>(orm, 'SELECT xmin::text AS v FROM page_groups WHERE id = ?', [group.id]))[0].v;
    const before = await version();
    for (let i = 0; i < 2; i++) {
      const { page, firstVersion } = aPage(group);
      await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    }
    expect(await version()).toBe(before);
    expect(await count('SELECT coalesce(sum(pages_count), 0) AS n FROM page_group_counters WHERE page_group_id = ?', [group.id])).toBe(2);
    const loaded = await new SqlPageGroupRepository(orm.em.fork()).findActiveById(group.tenantId, group.id);
    expect(loaded?.pagesCount).toBe(2);
  });

  it('refuses a page in a deleted group, and counts again once the group is restored', async () => {
    const group = await groupOfNewTenant();
    const create = () => {
      const { page, firstVersion } = aPage(group);
      return inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    };
    await sqlIn(orm, 'UPDATE page_groups SET deleted_at = now() WHERE id = ?', [group.id]);
    await expect(create()).rejects.toBeInstanceOf(NotFoundError);
    expect(await count('SELECT count(*) AS n FROM pages WHERE page_group_id = ?', [group.id])).toBe(0);
    await sqlIn(orm, 'UPDATE page_groups SET deleted_at = NULL WHERE id = ?', [group.id]);
    await create();
    expect(await count('SELECT coalesce(sum(pages_count), 0) AS n FROM page_group_counters WHERE page_group_id = ?', [group.id])).toBe(1);
  });

  it('rolls the outbox row back with the page when the transaction fails after writing them', async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = aPage(group);
    const eventId = firstVersion.peekEvents()[0].id;
    await expect(
      inContext(orm, () =>
        new MikroOrmUnitOfWork(orm.em).run(async () => {
          await new SqlPageRepository(orm.em).add(page, firstVersion);
          throw new Error('something later in the same unit of work failed');
        }),
      ),
    ).rejects.toThrow('something later');
    expect(await count('SELECT count(*) AS n FROM pages WHERE id = ?', [page.id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM page_versions WHERE page_id = ?', [page.id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM outbox_events WHERE id = ?', [eventId])).toBe(0);
    expect(await count('SELECT coalesce(sum(pages_count), 0) AS n FROM page_group_counters WHERE page_group_id = ?', [group.id])).toBe(0);
  });

  it('writes nothing for a group deleted before the page lands', async () => {
    const group = await groupOfNewTenant();
    await inContext(orm, async () => {
      const repo = new SqlPageGroupRepository(orm.em);
      const loaded = (await repo.findActiveById(group.tenantId, group.id))!;
      loaded.softDelete(new Date());
      await repo.save(loaded);
    });
    const { page, firstVersion } = aPage(group);
    await expect(inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true })).rejects.toThrow(NotFoundError);
    expect(await count('SELECT count(*) AS n FROM pages WHERE id = ?', [page.id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM outbox_events WHERE tenant_id = ?', [group.tenantId])).toBe(0);
  });

  it('rolls the whole page back when a delete of its group commits while it waits for the counter', async () => {
    const group = await groupOfNewTenant();
    const holder = new Client({ connectionString: testDatabaseUrl() });
    const observer = new Client({ connectionString: testDatabaseUrl() });
    await Promise.all([holder.connect(), observer.connect()]);
    try {
      await holder.query('BEGIN');
      await holder.query('UPDATE page_groups SET deleted_at = now() WHERE id = $1', [group.id]);
      const pid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const { page, firstVersion } = aPage(group);
      const saving = inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
      const outcome = saving.then(() => 'saved', (error: unknown) => error);
      // The page's statement waits on the delete's lock of the group's counter rows.
      await eventually(
        async () => (await observer.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [pid])).rows[0].n,
        (n) => n === 1,
      );
      await holder.query('COMMIT');
      expect(await outcome).toBeInstanceOf(NotFoundError);
      expect(await count('SELECT count(*) AS n FROM pages WHERE id = ?', [page.id])).toBe(0);
      expect(await count('SELECT count(*) AS n FROM outbox_events WHERE tenant_id = ?', [group.tenantId])).toBe(0);
      expect(await count('SELECT coalesce(sum(pages_count), 0) AS n FROM page_group_counters WHERE page_group_id = ?', [group.id])).toBe(0);
    } finally {
      await Promise.all([holder.end(), observer.end()]);
    }
  });

  it("counts on a free counter row instead of waiting for one another page's transaction holds", async () => {
    const group = await groupOfNewTenant();
    const holder = new Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      // Another transaction holds every counter row of the group but shard 5, as pages whose
      // commits are waiting for the disk do. The page must not queue behind them: if it waited,
      // it would wait for this test's COMMIT below, which comes only after it (the test times out).
      await holder.query('BEGIN');
      await holder.query('SELECT shard FROM page_group_counters WHERE page_group_id = $1 AND shard <> 5 FOR UPDATE', [group.id]);
      for (let i = 0; i < 2; i++) {
        const { page, firstVersion } = aPage(group);
        await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
      }
      await holder.query('COMMIT');
      const counts = await sqlIn<{ shard: number; pages_count: number }>(orm, 
        'SELECT shard, pages_count FROM page_group_counters WHERE page_group_id = ? AND pages_count > 0',
        [group.id],
      );
      expect(counts).toEqual([{ shard: 5, pages_count: 2 }]);
    } finally {
      await holder.end();
    }
  }, 15_000);

  it('lets only one of two versions with the same number in, with no event for the loser', async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = aPage(group);
    await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    const a = PageVersion.next(page, 1, new Date());
    const b = PageVersion.next(page, 1, new Date());
    const loserEvent = b.peekEvents()[0].id;
    await inUnitOfWork(orm, () => new SqlPageVersionRepository(orm.em).add(page, a));
    await expect(inUnitOfWork(orm, () => new SqlPageVersionRepository(orm.em).add(page, b))).rejects.toThrow(ConcurrentChangeError);
    expect(await count('SELECT count(*) AS n FROM page_versions WHERE page_id = ?', [page.id])).toBe(2);
    expect(await count('SELECT count(*) AS n FROM outbox_events WHERE id = ?', [loserEvent])).toBe(0);
    expect(await inContext(orm, () => new SqlPageVersionRepository(orm.em).latestNumber(group.tenantId, page.id))).toBe(2);
  });
});
