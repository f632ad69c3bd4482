import { Migration } from '@mikro-orm/migrations';

// When the sweeper last made a job for a delivery (SqlDeliveryStore.findStranded): the next
// sweeps leave it to that job for one lease, instead of making another every interval.
export class Migration20261125020000_delivery_requeue extends Migration {
  override name = 'Migration20261125020000_delivery_requeue';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_deliveries ADD COLUMN enqueued_at timestamptz(3)`);
  }
}
