import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook operations (issue 20, items 1–4; docs/decisions.md 82).
 *
 * A manual delivery (a redelivery, a recovery, a test event) is a row of webhook_deliveries of its
 * own, with `manual_id` set to its own id, so that the worker claims, signs, sends and records it
 * like any other. The unique key on (event, subscription) now counts `manual_id` with NULLs equal:
 * one scheduled delivery per event and subscription, as before, and any number of manual ones.
 * It stays a full index whose first column is event_id, so the foreign key's check and the
 * retention's NOT EXISTS on event_id still use it (a partial index would not serve them).
 */
export class Migration20261125080000_webhook_operations extends Migration {
  override name = 'Migration20261125080000_webhook_operations';

  override up(): void {
    this.addSql(`ALTER TABLE webhook_deliveries ADD COLUMN manual_id text COLLATE "C", ADD COLUMN redelivery_of text COLLATE "C"`);
    this.addSql(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_manual_id_check CHECK (manual_id IS NULL OR manual_id = id) NOT VALID`);
    this.addSql(`ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_manual_id_check`);
    this.addSql(`CREATE UNIQUE INDEX webhook_deliveries_event_subscription_manual_key ON webhook_deliveries (event_id, subscription_id, manual_id) NULLS NOT DISTINCT`);
    this.addSql(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_subscription_key`);
    // Manual deliveries the relay has not handed to the queue yet: an empty index, read every round.
    this.addSql(`CREATE INDEX webhook_deliveries_requested_idx ON webhook_deliveries (id) WHERE manual_id IS NOT NULL AND enqueued_at IS NULL AND status = 'pending'`);
    // Redeliveries of one delivery (the 409 check, the log).
    this.addSql(`CREATE INDEX webhook_deliveries_redelivery_idx ON webhook_deliveries (redelivery_of) WHERE redelivery_of IS NOT NULL`);
    // What recovery looks for: scheduled deliveries of a subscription that failed or are being
    // retried. A delivery that succeeds at once never enters this index.
    this.addSql(`CREATE INDEX webhook_deliveries_recoverable_idx ON webhook_deliveries (subscription_id, created_at)
                 WHERE manual_id IS NULL AND (status = 'failed' OR (status IN ('pending', 'sending') AND attempt_count > 0))`);
    this.addSql(`ALTER TABLE webhook_delivery_attempts ADD COLUMN trigger text NOT NULL DEFAULT 'scheduled', ADD COLUMN redelivery_of text COLLATE "C"`);
    // Old signing secrets still valid after a rotation: [{ "secret": <encrypted>, "expiresAt": <ISO> }], newest first.
    this.addSql(`ALTER TABLE webhook_subscriptions ADD COLUMN previous_signing_secrets jsonb NOT NULL DEFAULT '[]'`);
  }
}
