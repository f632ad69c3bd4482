import { Migration } from '@mikro-orm/migrations';

/**
 * A delivery's subscription is no longer checked by a foreign key (decisions.md 154), as its tenant
 * was not since Migration20261125040000 (decisions.md 74). The relay writes deliveries only from
 * the subscription rows it reads in the same transaction, and subscriptions are never deleted
 * (a DELETE sets `deleted_at`), so the check never failed. It cost one query per delivery written
 * (a look-up of the subscription FOR KEY SHARE, run as a trigger after the relay's insert): 11 %
 * of PostgreSQL's CPU in a drain (perf, docs/performance-analysis.md), and a lock on the hottest
 * row of a drain in every relay transaction.
 */
export class Migration20261129200000_delivery_subscription_key extends Migration {
  override name = 'Migration20261129200000_delivery_subscription_key';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_subscription_id_fkey`);
  }
}
