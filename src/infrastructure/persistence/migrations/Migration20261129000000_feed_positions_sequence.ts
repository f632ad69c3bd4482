import { Migration } from '@mikro-orm/migrations';

/**
 * The event feed's positions come from a sequence, and relays take turns on an advisory lock
 * (event-feed.sql.ts), instead of updating the one row of `event_feed_counter` each round. That
 * row grew a new version every round, and while anything held back the database's oldest
 * snapshot (an autovacuum ANALYZE of a large table holds one for its whole, throttled run) no
 * version could be pruned: each round's update walked all of them first (0.12 ms, 0.42 ms after
 * 10,000 rounds). A sequence is changed in place. It starts where the counter was.
 */
export class Migration20261129000000_feed_positions_sequence extends Migration {
  override name = 'Migration20261129000000_feed_positions_sequence';

  override up(): void {
    this.addSql(`CREATE SEQUENCE event_feed_positions AS bigint MINVALUE 0 START 0`);
    this.addSql(`SELECT setval('event_feed_positions', (SELECT last_position FROM event_feed_counter))`);
    this.addSql(`DROP TABLE event_feed_counter`);
  }
}
