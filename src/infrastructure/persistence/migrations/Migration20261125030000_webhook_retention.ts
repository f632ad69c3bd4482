import { Migration } from '@mikro-orm/migrations';

// Indexes for the queries that run over the whole delivery history (issue 18; each has an
// EXPLAIN test on a million rows): retention by age, and the auto-disable rule's "any delivery of
// this subscription delivered lately". The sweeper's (webhook_deliveries_unfinished_idx) and the
// deliveries log's (webhook_delivery_attempts_subscription_idx) exist since the webhooks migration.
export class Migration20261125030000_webhook_retention extends Migration {
  override name = 'Migration20261125030000_webhook_retention';

  override up(): void {
    this.addSql(`CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL`);
    this.addSql(`CREATE INDEX webhook_deliveries_delivered_idx ON webhook_deliveries (subscription_id, finished_at) WHERE status = 'delivered'`);
    this.addSql(`CREATE INDEX outbox_events_published_idx ON outbox_events (published_at) WHERE published_at IS NOT NULL`);
  }
}
