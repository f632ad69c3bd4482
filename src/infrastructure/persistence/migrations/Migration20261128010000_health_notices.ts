import { Migration } from '@mikro-orm/migrations';

/**
 * What a subscription's owner was told of its endpoint's health (issue 42; health-notices.ts):
 * when the last `webhook_subscription.failing` was sent, and whether a `recovered` is owed for it.
 * The events are damped by them: a `failing` at most once an hour, a `recovered` only after one.
 */
export class Migration20261128010000_health_notices extends Migration {
  override name = 'Migration20261128010000_health_notices';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_subscriptions
                   ADD COLUMN health_failing_sent_at timestamptz(3),
                   ADD COLUMN health_recovery_owed boolean NOT NULL DEFAULT false`);
  }
}
