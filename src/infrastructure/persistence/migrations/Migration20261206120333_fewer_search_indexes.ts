import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery search reads one subscription's deliveries from the tenant's index: its own index
 * cost the drain an entry for every delivery and every attempt's record (measured with
 * `npm run bench:drain`, decisions.md 187), for a filter a tenant's few subscriptions serve well.
 */
export class Migration20261206120333_fewer_search_indexes extends Migration {
  override name = 'Migration20261206120333_fewer_search_indexes';

  override up(): void {
    this.addSql(`drop index "webhook_deliveries_subscription_idx"`);
  }
}
