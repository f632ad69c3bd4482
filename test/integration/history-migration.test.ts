import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { migrateLocked } from '../../src/infrastructure/persistence/migrations/migrate';
import { ISOLATED_PREFIX, testDatabaseUrl, withAdmin } from '../support/test-database-url';

// A database that holds history when the partitioning migration comes: its tables become the
// `_before` day of their partitioned tables, nothing copied. The online step first builds the
// widened keys CONCURRENTLY and validates the bound checks; the migration itself is catalog changes.
// The one after it turns the event feed's counter row into a sequence that starts where it was.
describe('partitioning a history that holds rows', () => {
  it('keeps every row, in the `_before` day, and new rows go to the days made', async () => {
    const name = `${ISOLATED_PREFIX}${randomBytes(6).toString('hex')}`;
    await withAdmin(testDatabaseUrl(), (admin) => admin.query(`CREATE DATABASE "${name}"`));
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${name}`;
    const orm = await MikroORM.init(createOrmConfig(url.toString(), 2));
    const pg = new Client({ connectionString: url.toString() });
    try {
      await orm.migrator.up({ to: 'Migration20261128070000_ordered_delivery' });
      await pg.connect();
      await pg.query(`INSERT INTO tenants (id, name, created_at) VALUES ('tenant_m', 'm', now())`);
      await pg.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
         VALUES ('whsub_m', 'tenant_m', 'https://hooks.example.com/m', '{page.version.created}', true, 'x', now(), now())`,
      );
      const before = newTypeId('evt', Date.now() - 3_600_000);
      await pg.query(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at, position) VALUES ($1, 'tenant_m', 'page.version.created', '{}', now(), now(), 1)`, [before]);
      // One the relay had not published yet: it is queued for the relay by the migration.
      const waiting = newTypeId('evt', Date.now() - 3_500_000);
      await pg.query(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES ($1, 'tenant_m', 'page.version.created', '{}', now())`, [waiting]);
      await pg.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
         VALUES ('whdlv_m1', 'tenant_m', 'whsub_m', $1, 'page.version.created', 'pending', 1, now(), now(), now())`,
        [before],
      );
      await pg.query(
        `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
         VALUES ('whatt_m1', 'tenant_m', 'whdlv_m1', 'whsub_m', $1, 'page.version.created', 1, 500, 3, now())`,
        [before],
      );

      // The feed's counter as a running service left it: the sequence that replaces it starts there.
      await pg.query('UPDATE event_feed_counter SET last_position = 41');

      const run = await migrateLocked(orm);
      expect(run.applied).toEqual(['Migration20261128080000_partitioned_history', 'Migration20261129000000_feed_positions_sequence', 'Migration20261129100000_narrow_publish', 'Migration20261129200000_delivery_subscription_key', 'Migration20261129300000_attempt_record_type', 'Migration20261206000000_bounded_turns', 'Migration20261206010000_history_holds', 'Migration20261206020000_pass_turns_function', 'Migration20261206030000_idempotency_per_api_key', 'Migration20261206092215_portal_sessions', 'Migration20261206110940_delivery_search', 'Migration20261206120333_fewer_search_indexes']);
      expect((await pg.query(`SELECT nextval('event_feed_positions')::int AS next`)).rows).toEqual([{ next: 42 }]);
      expect((await pg.query(`SELECT to_regclass('event_feed_counter') AS counter`)).rows).toEqual([{ counter: null }]);

      const where = async (table: string) => (await pg.query(`SELECT tableoid::regclass::text AS day, id FROM ${table}`)).rows;
      expect(await where('outbox_events')).toEqual([
        { day: 'outbox_events_before', id: before },
        { day: 'outbox_events_before', id: waiting },
      ]);
      // The published event's position moved to the feed, in the feed's day of its event; the other is queued.
      expect((await pg.query(`SELECT tableoid::regclass::text AS day, event_id, position::int FROM event_feed`)).rows).toEqual([
        { day: 'event_feed_before', event_id: before, position: 1 },
      ]);
      expect((await pg.query('SELECT id FROM outbox_unpublished')).rows).toEqual([{ id: waiting }]);
      expect(await where('webhook_deliveries')).toEqual([{ day: 'webhook_deliveries_before', id: 'whdlv_m1' }]);
      expect(await where('webhook_delivery_attempts')).toEqual([{ day: 'webhook_delivery_attempts_before', id: 'whatt_m1' }]);
      // The old table's keys serve the new one's: an attempt logged twice is still logged once.
      await pg.query(
        `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
         VALUES ('whatt_m2', 'tenant_m', 'whdlv_m1', 'whsub_m', $1, 'page.version.created', 1, 500, 3, now())
         ON CONFLICT (delivery_id, attempt_number, event_id) DO NOTHING`,
        [before],
      );
      expect(await where('webhook_delivery_attempts')).toHaveLength(1);
      // Today's rows still go to `_before` (below its proven bound); days are made from tomorrow on.
      // (Made in time order: this process's ids never go back in time once one was made later.)
      const today = newTypeId('evt');
      const later = newTypeId('evt', Date.now() + 2 * 86_400_000);
      for (const id of [today, later]) await pg.query(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES ($1, 'tenant_m', 'page.version.created', '{}', now())`, [id]);
      const dayOf = async (id: string) => (await pg.query(`SELECT tableoid::regclass::text AS day FROM outbox_events WHERE id = $1`, [id])).rows[0].day;
      expect(await dayOf(today)).toBe('outbox_events_before');
      // Each written event is queued for the relay by the statement that wrote it.
      expect((await pg.query('SELECT id FROM outbox_unpublished ORDER BY id')).rows.map((r) => r.id)).toEqual([waiting, today, later]);
      expect(await dayOf(later)).toBe(`outbox_events_p${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '')}`);
    } finally {
      await pg.end().catch(() => undefined);
      await orm.close(true);
      await withAdmin(testDatabaseUrl(), (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 60_000);
});
