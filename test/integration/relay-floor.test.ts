import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { FEED_TURN_LOCK } from '../../src/infrastructure/persistence/outbox/event-feed.sql';
import { outboxRelay } from '../support/outbox-relay';
import { sqlIn } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';
import { eventually } from '../support/eventually';

// The relay reads the outbox from the lowest event id its wake-ups named (relay.loop.ts), and
// from the first on its poll; positions come from a sequence under the relays' turn
// (event-feed.sql.ts). Its own database: the relay reads the whole outbox.
let orm: MikroORM;
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let tenantId: string;

beforeAll(async () => {
  database = await isolatedDatabase();
  orm = await MikroORM.init(createOrmConfig(database.url, 4, undefined, 'per-call'));
  tenantId = newTypeId('tenant');
  await sqlIn(orm, `INSERT INTO tenants (id, name, created_at) VALUES (?, 'floor', now())`, [tenantId]);
});
afterAll(async () => {
  await orm.close(true);
  await database.drop();
});

/** An unpublished brand.created event whose id was made at `ms`; its id. */
async function eventAt(ms: number): Promise<string> {
  const id = newTypeId('evt', ms);
  const body = JSON.stringify({ id, type: 'brand.created', createdAt: new Date(ms).toISOString(), tenantId, data: { brandId: 'brand_x' } });
  await sqlIn(orm, `INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES (?, ?, 'brand.created', ?, now())`, [id, tenantId, body]);
  return id;
}

const published = (ids: string[]) =>
  sqlIn<{ id: string; position: string | null }>(orm, 'SELECT event_id AS id, position FROM event_feed WHERE event_id IN (?)', [ids]).then((rows) =>
    Object.fromEntries(rows.map((r) => [r.id, Number(r.position)])),
  );

describe('the relay reads the outbox from an event id', () => {
  it('publishes only events from the id it was told of; the whole outbox then finds the one that committed late below it', async () => {
    const now = Date.now();
    // The late one's id was made first, as when its transaction started before the other's and committed after.
    const late = await eventAt(now - 500);
    const told = await eventAt(now);
    const relay = outboxRelay(orm);

    const fromTold = await relay.fanOut(100, new Date(), told);
    expect(fromTold).toMatchObject({ events: 1, more: false, through: told });
    expect(Object.keys(await published([late, told]))).toEqual([told]);

    expect(await relay.fanOut(100, new Date(), null)).toMatchObject({ events: 1, through: late });
    const positions = await published([late, told]);
    // In the order published: the late one after, so a consumer past `told` still finds it.
    expect(positions[late]).toBeGreaterThan(positions[told]);
  });

  it('takes its block of positions only when the relay holding the turn has committed', async () => {
    const event = await eventAt(Date.now());
    // Relay A is between its publish and its commit: it holds the turn and has taken one position.
    const a = new Client({ connectionString: database.url });
    await a.connect();
    try {
      await a.query('BEGIN');
      await a.query(`SELECT pg_advisory_xact_lock(${FEED_TURN_LOCK})`);
      const { rows } = await a.query(`SELECT setval('event_feed_positions', last_value + 1) AS taken FROM event_feed_positions`);
      const round = outboxRelay(orm).fanOut(100, new Date(), event);
      await eventually(
        async () => (await a.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'advisory' AND datname = current_database()`)).rows[0].n,
        (n) => n === 1,
      );
      await a.query('COMMIT');
      expect(await round).toMatchObject({ events: 1, through: event });
      expect((await published([event]))[event]).toBe(Number(rows[0].taken) + 1);
    } finally {
      await a.end();
    }
  });
});
