import { Migration } from '@mikro-orm/migrations';

/**
 * Deliveries held by their subscription (issue 42, no storms): behind an open breaker or a
 * receiver's Retry-After, a delivery is parked (`next_attempt_at` NULL while pending) instead of
 * being put off to the same instant as every other, claimed again and held again. The worker wakes
 * one probe per subscription when its time comes (`breaker_probe_delivery_id` names it), and
 * releases the rest in pages once it may (`held_release_at`: when the next page may go).
 */
export class Migration20261128020000_held_deliveries extends Migration {
  override name = 'Migration20261128020000_held_deliveries';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_subscriptions
                   ADD COLUMN breaker_probe_delivery_id text COLLATE "C",
                   ADD COLUMN held_release_at timestamptz(3)`);
    // Only what is held: empty while receivers answer.
    this.addSql(`CREATE INDEX webhook_deliveries_held_idx ON webhook_deliveries (subscription_id, id)
                   WHERE status IN ('pending', 'sending') AND next_attempt_at IS NULL AND manual_id IS NULL`);
  }
}
