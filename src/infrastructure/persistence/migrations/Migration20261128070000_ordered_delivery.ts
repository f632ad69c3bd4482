import { Migration } from '@mikro-orm/migrations';

/**
 * Ordered delivery per page (issue 45, decisions.md 145). A subscription's `ordering` ('none' or
 * 'page'); a delivery of an ordered subscription carries its page (`order_key`) and the version's
 * number (`order_seq`). One of a page's deliveries has the turn (pending as any other); the later
 * ones are 'waiting': no time, no job, nothing claims them, and the breaker's hold and release,
 * the sweeper and the retention leave them alone (they all select 'pending'). The one before
 * passes the turn on when it ends (SqlDeliveryTurns).
 *
 * The new column's default is a constant: no rewrite of the table. The status check is replaced
 * NOT VALID then validated, which scans without blocking writes. webhook_deliveries_turns_idx
 * holds only ordered deliveries not yet finished: empty for subscriptions that do not order.
 */
export class Migration20261128070000_ordered_delivery extends Migration {
  override name = 'Migration20261128070000_ordered_delivery';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_subscriptions ADD COLUMN ordering text NOT NULL DEFAULT 'none' CHECK (ordering IN ('none', 'page'))`);
    this.addSql(`ALTER TABLE webhook_deliveries ADD COLUMN order_key text COLLATE "C", ADD COLUMN order_seq bigint`);
    this.addSql(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check,
                   ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'sending', 'waiting', 'delivered', 'failed', 'cancelled')) NOT VALID`);
    this.addSql(`ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_status_check`);
    this.addSql(`CREATE INDEX webhook_deliveries_turns_idx ON webhook_deliveries (subscription_id, order_key, order_seq)
                   WHERE order_key IS NOT NULL AND status IN ('pending', 'sending', 'waiting')`);
  }
}
