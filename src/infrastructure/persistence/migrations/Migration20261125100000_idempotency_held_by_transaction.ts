import { Migration } from '@mikro-orm/migrations';

/**
 * An Idempotency-Key is held by the transaction of the request that uses it (an advisory lock
 * that ends with it; issue 27, decisions.md 40), no longer by a row with a 60 s hold: a request
 * that answered or died keeps no retry waiting. Rows are kept answers only. Holds left by the old
 * code are dropped (they were only ever in progress; their requests made no change, or made it
 * in a transaction that has ended).
 */
export class Migration20261125100000_idempotency_held_by_transaction extends Migration {
  override name = 'Migration20261125100000_idempotency_held_by_transaction';

  override up(): void {
    this.addSql(`DELETE FROM idempotency_keys WHERE state <> 'completed' OR response_status IS NULL OR response_body IS NULL`);
    this.addSql(`ALTER TABLE idempotency_keys DROP COLUMN state, DROP COLUMN locked_until, DROP COLUMN owner`);
    this.addSql(`ALTER TABLE idempotency_keys ALTER COLUMN response_status SET NOT NULL, ALTER COLUMN response_body SET NOT NULL`);
  }
}
