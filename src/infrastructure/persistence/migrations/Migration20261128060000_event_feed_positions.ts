import { Migration } from '@mikro-orm/migrations';

/**
 * The event feed's positions (decisions.md 142): the relay gives each event it publishes the next
 * position, in one statement that first takes the one counter row, so relays take turns from there
 * to their commit and positions become visible in their order. Events published before are
 * numbered here in id order; `webhook.test` events are written published and are not in the feed.
 */
export class Migration20261128060000_event_feed_positions extends Migration {
  override name = 'Migration20261128060000_event_feed_positions';

  override up(): void {
    this.addSql(`ALTER TABLE outbox_events ADD COLUMN position bigint`);
    this.addSql(`CREATE TABLE event_feed_counter (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), last_position bigint NOT NULL)`);
    this.addSql(`
      UPDATE outbox_events o SET position = numbered.n
      FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM outbox_events WHERE published_at IS NOT NULL AND type <> 'webhook.test') numbered
      WHERE o.id = numbered.id`);
    this.addSql(`INSERT INTO event_feed_counter (last_position) SELECT coalesce(max(position), 0) FROM outbox_events`);
    this.addSql(`CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (tenant_id, position) WHERE position IS NOT NULL`);
  }
}
