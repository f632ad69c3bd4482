import { Migration } from '@mikro-orm/migrations';

/**
 * The row type of the attempts' record (RECORD_ATTEMPTS_SQL, recordDaySql): its rows travel as one
 * array of it (record-literals.ts), which PostgreSQL reads faster than the same rows as JSON
 * (decisions.md 158). Its fields are in the order recordRows writes them.
 */
export class Migration20261129300000_attempt_record_type extends Migration {
  override name = 'Migration20261129300000_attempt_record_type';

  override up(): void {
    this.addSql(`CREATE TYPE webhook_attempt_record AS (
      id text, tenant_id text, delivery_id text, subscription_id text, event_id text, event_type text, attempt_number int, status_code int, duration_ms int,
      error text, next_attempt_at float8, created_at float8, status text, finished_at float8, trigger text, redelivery_of text)`);
  }
}
