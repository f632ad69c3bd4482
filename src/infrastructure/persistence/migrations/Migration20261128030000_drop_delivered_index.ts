import { Migration } from '@mikro-orm/migrations';

/**
 * The auto-disable rule once asked "any delivery of this subscription delivered lately" of the
 * deliveries table; endpoint health answers it from the subscription now (its last success), so
 * the index nothing reads goes: each delivered delivery added an entry to it (issue 42, speed).
 */
export class Migration20261128030000_drop_delivered_index extends Migration {
  override name = 'Migration20261128030000_drop_delivered_index';

  override up(): void {
    this.addSql('DROP INDEX IF EXISTS webhook_deliveries_delivered_idx');
  }
}
