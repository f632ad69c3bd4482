import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery search and one delivery's attempts (GET /v0/webhook_deliveries, decisions.md 187):
 * what each delivery is about (subject_id, set by the relay from the event; deliveries made before
 * stay without one), the search's indexes, and what an attempt keeps for the person reading it
 * (when it went, the start of an answer that was not a 2xx). The attempts' record type takes the
 * two new fields last, in the order recordRows writes them.
 */
export class Migration20261206110940_delivery_search extends Migration {
  override name = 'Migration20261206110940_delivery_search';

  override up(): void {
    this.addSql(`alter table "webhook_delivery_attempts" add "sent_at" timestamptz(3) null, add "response_excerpt" text null`);
    this.addSql(`alter type webhook_attempt_record add attribute sent_at float8, add attribute response_excerpt text`);
    this.addSql(`alter table "webhook_deliveries" add "subject_id" text collate "C" null`);
    this.addSql(`create index "webhook_deliveries_tenant_idx" on "webhook_deliveries" ("tenant_id", "id")`);
    this.addSql(`create index "webhook_deliveries_subscription_idx" on "webhook_deliveries" ("subscription_id", "id")`);
    this.addSql(`create index "webhook_deliveries_subject_idx" on "webhook_deliveries" ("tenant_id", "subject_id", "id") where subject_id IS NOT NULL`);
    this.addSql(`create index "webhook_deliveries_undelivered_idx" on "webhook_deliveries" ("tenant_id", "status", "id") where status = ANY (ARRAY['pending'::text, 'sending'::text, 'waiting'::text, 'failed'::text, 'cancelled'::text])`);
  }
}
