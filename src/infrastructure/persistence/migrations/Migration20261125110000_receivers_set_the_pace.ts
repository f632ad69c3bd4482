import { Migration } from '@mikro-orm/migrations';

/**
 * Receivers set the pace (issue 28; docs/webhooks.md, Receivers set the pace).
 * - `rate_limit_per_second`: the customer's cap on attempts to a subscription, across workers.
 * - `send_not_before`: the earliest time the subscription's next attempt may be sent. A 429 or
 *   503 with Retry-After moves it forward; with a rate limit it is also the next free slot (each
 *   attempt takes the slot and moves it on by 1/rate), so attempts of every worker take turns on
 *   this one row.
 * - `paced_slot_at` on a delivery: the slot its next attempt was given, so that when its job comes
 *   back at that time it is sent without queuing for a slot again.
 */
export class Migration20261125110000_receivers_set_the_pace extends Migration {
  override name = 'Migration20261125110000_receivers_set_the_pace';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_subscriptions
                   ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second BETWEEN 1 AND 10000),
                   ADD COLUMN send_not_before timestamptz(3)`);
    this.addSql(`ALTER TABLE webhook_deliveries ADD COLUMN paced_slot_at timestamptz(3)`);
  }
}
