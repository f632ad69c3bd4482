import { MikroORM } from '@mikro-orm/postgresql';
import { Client, Pool, PoolClient } from 'pg';
import { PageGroup } from '../../src/domain/page-group/page-group';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { OUTBOX_CHANNEL } from '../../src/infrastructure/persistence/outbox/relay-wake';
import { SqlPageRepository, PAGE_COUNTER_SHARDS } from '../../src/infrastructure/persistence/repositories/sql-page.repository';
import { inContext, inUnitOfWork, openTestOrm } from '../support/database';
import { groupOfNewTenant as newGroup } from '../support/builders/stored';
import { isolatedDatabase } from '../support/isolated-database';
import { aPage } from '../support/builders/aggregates';

// The relay's NOTIFY is sent after the event's transaction commits (relay-wake.ts). What the
// relay relies on: when a wake-up arrives, the events it announces are committed and visible to
// another connection, also when the page's transaction is nested in a unit of work.
// Its own database: NOTIFY channels are per database, and other test files create pages (and so
// wake-ups) on the shared one at any moment, which this listener would take for its own.
let orm: MikroORM;
let listener: Client;
let database: { url: string; drop: () => Promise<void> };
beforeAll(async () => {
  database = await isolatedDatabase();
  orm = await openTestOrm(database.url);
  listener = new Client({ connectionString: database.url });
  await listener.connect();
  await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await orm.close(true);
  await database.drop();
});

const groupOfNewTenant = () => newGroup(orm, 'Wake');

/** On the next wake-up, how many of these events the listener's own connection can see. */
function visibleAtNextWake(eventIds: () => string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    listener.once('notification', () => {
      listener
        .query('SELECT count(*)::int AS n FROM outbox_events WHERE id = ANY($1::text[])', [eventIds()])
        .then((result) => resolve(result.rows[0].n), reject);
    });
  });
}

const newPage = (group: PageGroup) => aPage(group);

describe('relay wake-up after the commit', () => {
  it('arrives once the page, its event included, is committed', async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = newPage(group);
    const eventId = firstVersion.peekEvents()[0].id;
    const seen = visibleAtNextWake(() => [eventId]);
    await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    expect(await seen).toBe(1);
  });

  it('waits for the outer commit when the page is written inside a unit of work', async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = newPage(group);
    const eventId = firstVersion.peekEvents()[0].id;
    const seen = visibleAtNextWake(() => [eventId]);
    await inContext(orm, () =>
      new MikroOrmUnitOfWork(orm.em).run(async () => {
        await new SqlPageRepository(orm.em).add(page, firstVersion);
        // Still uncommitted here: a wake-up sent now would find nothing and the event would wait
        // for the relay's poll.
        await orm.em.execute('SELECT pg_sleep(0.05)');
      }),
    );
    expect(await seen).toBe(1);
  });

  it('names the lowest event id its commit wrote, so that the relay reads the outbox from there', async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = newPage(group);
    const lowest = firstVersion.peekEvents().map((event) => event.id).sort()[0];
    const payload = new Promise<string | undefined>((resolve) => listener.once('notification', (message) => resolve(message.payload)));
    await inUnitOfWork(orm, () => new SqlPageRepository(orm.em).add(page, firstVersion), { oneWrite: true });
    expect(await payload).toBe(lowest);
  });

  it("is sent while every connection of the ORM's pool is taken: the wake-up has a connection of its own", async () => {
    const group = await groupOfNewTenant();
    const { page, firstVersion } = newPage(group);
    const eventId = firstVersion.peekEvents()[0].id;
    const pool = (await orm.em.getConnection().getNativeClient()) as Pool;
    // All but one connection taken; the last is the write's, and a waiter queued inside the
    // write takes it at the commit, before the wake-up could: on the pool, it would wait for them all.
    const held: PoolClient[] = await Promise.all(Array.from({ length: pool.options.max - 1 }, () => pool.connect()));
    let last: Promise<PoolClient> | undefined;
    try {
      const seen = visibleAtNextWake(() => [eventId]);
      await inUnitOfWork(orm, async () => {
        await new SqlPageRepository(orm.em).add(page, firstVersion);
        last = pool.connect();
      });
      expect(await seen).toBe(1);
      expect(pool.idleCount).toBe(0);
    } finally {
      for (const client of held) client.release();
      (await last)?.release();
    }
  });

  it(`keeps every group's count in ${PAGE_COUNTER_SHARDS} counter rows, as the migration made them`, async () => {
    const group = await groupOfNewTenant();
    const { rows } = await listener.query('SELECT array_agg(shard ORDER BY shard) AS shards FROM page_group_counters WHERE page_group_id = $1', [group.id]);
    expect(rows[0].shards).toEqual(Array.from({ length: PAGE_COUNTER_SHARDS }, (_, i) => i));
  });
});
