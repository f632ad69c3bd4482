import { Migration } from '@mikro-orm/migrations';

// Which request holds an Idempotency-Key: a request whose hold ran out and was taken over by a
// retry must not be able to write its response over the new holder's (issue 17). Rows written
// before this migration have no owner and can only be taken over, never completed.
export class Migration20261125000000_idempotency_owner extends Migration {
  override name = 'Migration20261125000000_idempotency_owner';

  override up(): void {
    this.addSql(`ALTER TABLE idempotency_keys ADD COLUMN owner text`);
  }
}
