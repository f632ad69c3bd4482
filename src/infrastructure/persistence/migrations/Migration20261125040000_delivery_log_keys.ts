import { Migration } from '@mikro-orm/migrations';

// The delivery tables' copies of their parent's keys are not checked against tenants and
// subscriptions again (decisions.md 74): an attempt's tenant and subscription are its delivery's,
// which is checked (delivery_id), and a delivery's tenant is its subscription's, which is checked
// (subscription_id). Each of those checks locked the one tenant row, and the subscription row, for
// every attempt written: the hottest rows of a drain, shared by every transaction in flight.
export class Migration20261125040000_delivery_log_keys extends Migration {
  override name = 'Migration20261125040000_delivery_log_keys';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT IF EXISTS webhook_delivery_attempts_tenant_id_fkey, DROP CONSTRAINT IF EXISTS webhook_delivery_attempts_subscription_id_fkey`);
    this.addSql(`ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_tenant_id_fkey`);
  }
}
