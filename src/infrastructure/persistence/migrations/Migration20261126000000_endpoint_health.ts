import { Migration } from '@mikro-orm/migrations';

/**
 * The health of a subscription's endpoint (issue 30; domain/webhook/endpoint-health.ts), kept on
 * its row and written with each finished attempt that changes it:
 * - `consecutive_failures`: finished attempts that failed since the last success;
 * - `last_success_at`, `last_failure_at`: when the last of each finished;
 * - `disable_at`: while failing, when the platform turns the subscription off if nothing succeeds;
 * - `disabled_reason`: why the platform turned it off (`gone`, `failing`), until the customer
 *   turns it back on;
 * - `breaker_probe_at`: while the breaker is open, the earliest time of its next probe (null when
 *   closed); an attempt that takes the probe moves it on first, so one probe goes at a time;
 * - `breaker_probes`: the probes that failed since it opened (which gap of the schedule is next).
 */
export class Migration20261126000000_endpoint_health extends Migration {
  override name = 'Migration20261126000000_endpoint_health';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_subscriptions
                   ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
                   ADD COLUMN last_success_at timestamptz(3),
                   ADD COLUMN last_failure_at timestamptz(3),
                   ADD COLUMN disable_at timestamptz(3),
                   ADD COLUMN disabled_reason text CHECK (disabled_reason IN ('gone', 'failing')),
                   ADD COLUMN breaker_probe_at timestamptz(3),
                   ADD COLUMN breaker_probes integer NOT NULL DEFAULT 0`);
  }
}
