import { Migration } from '@mikro-orm/migrations';

/**
 * API processes that keep a key cache in Redis (issue 41): each one's row, refreshed while it
 * runs. An operator's revocation from a process that cannot reach that Redis reads this to know
 * whether cached copies may still let the key in, instead of claiming a revocation it could not
 * make whole (docs/decisions.md).
 */
export class Migration20261128000000_key_cache_holders extends Migration {
  override name = 'Migration20261128000000_key_cache_holders';

  override up(): void {
    this.addSql(`CREATE TABLE api_key_cache_holders (
                   holder text PRIMARY KEY CHECK (length(holder) <= 200),
                   seen_at timestamptz NOT NULL
                 )`);
  }
}
