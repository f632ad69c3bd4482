import { Migration } from '@mikro-orm/migrations';

/**
 * The relay's publish no longer updates the 1 KB event row (issue 42, item 7; decisions.md 151).
 * That update could not stay on its page (its mark and its position were indexed): a new version
 * of the row, four index entries and 1.9 KB of WAL an event, 76 µs at rest. Now:
 *
 * - `outbox_unpublished` is the relay's queue: one narrow row per event to relay, written by a
 *   trigger in the statement that writes the event (so no writer can forget it, and the change,
 *   its event and its queue row commit together). An event written published already (a test
 *   delivery's, `published_at` set) gets none. The relay claims and locks these rows, and deletes
 *   them when it publishes.
 * - `event_feed` holds each relayed event's feed position: one narrow row inserted when the event
 *   is published, with what the feed's filters read (tenant, type, time), partitioned by the
 *   event's id with the same days as the events, so that a day of history is still dropped whole
 *   (history-tables.ts).
 *
 * Together 22.5 µs an event at rest. Events relayed before keep their positions (copied); events
 * not relayed yet are queued. The event row keeps `published_at` only for events written
 * published; its `position` column and the two indexes over the old mark go.
 */
export class Migration20261129100000_narrow_publish extends Migration {
  override name = 'Migration20261129100000_narrow_publish';

  override up(): void {
    this.addSql(`CREATE TABLE outbox_unpublished (id text COLLATE "C" PRIMARY KEY)`);
    this.addSql(`CREATE TABLE event_feed (
      event_id text COLLATE "C" NOT NULL,
      tenant_id text COLLATE "C" NOT NULL,
      type text NOT NULL,
      created_at timestamptz(3) NOT NULL,
      position bigint NOT NULL,
      published_at timestamptz(3) NOT NULL
    ) PARTITION BY RANGE (event_id)`);
    // The feed's days are the events' days, bound for bound and named alike.
    this.addSql(`DO $$
      DECLARE day record;
      BEGIN
        FOR day IN SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
                   FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'outbox_events'::regclass
        LOOP
          EXECUTE format('CREATE TABLE %I PARTITION OF event_feed %s', replace(day.name, 'outbox_events', 'event_feed'), day.bound);
        END LOOP;
      END $$`);
    this.addSql(`INSERT INTO event_feed (event_id, tenant_id, type, created_at, position, published_at)
      SELECT id, tenant_id, type, created_at, position, published_at FROM outbox_events WHERE position IS NOT NULL`);
    this.addSql(`CREATE INDEX event_feed_position_idx ON event_feed (tenant_id, position)`);
    this.addSql(`INSERT INTO outbox_unpublished (id) SELECT id FROM outbox_events WHERE published_at IS NULL`);
    this.addSql(`CREATE FUNCTION outbox_events_queue() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO outbox_unpublished (id) SELECT id FROM written WHERE published_at IS NULL;
        RETURN NULL;
      END $$`);
    this.addSql(`CREATE TRIGGER outbox_events_queue AFTER INSERT ON outbox_events
      REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_queue()`);
    this.addSql(`DROP INDEX IF EXISTS outbox_events_feed_idx`);
    this.addSql(`DROP INDEX IF EXISTS outbox_events_feed_any_idx`);
    this.addSql(`DROP INDEX IF EXISTS outbox_events_unpublished_idx`);
    this.addSql(`ALTER TABLE outbox_events DROP COLUMN position`);
  }
}
