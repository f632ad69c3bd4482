import { Migration } from '@mikro-orm/migrations';

/**
 * A subscription's filter (domain/webhook/delivery-filter.ts): `{ pageGroupIds?, brandIds? }`,
 * null for none. The relay reads it with the subscription; a nullable column with no default
 * rewrites nothing.
 */
export class Migration20261128050000_subscription_filters extends Migration {
  override name = 'Migration20261128050000_subscription_filters';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_subscriptions ADD COLUMN delivery_filter jsonb CHECK (delivery_filter IS NULL OR jsonb_typeof(delivery_filter) = 'object')`);
  }
}
