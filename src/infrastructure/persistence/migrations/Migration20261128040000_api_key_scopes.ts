import { Migration } from '@mikro-orm/migrations';

/**
 * What a key may do (domain/api-key/api-key-scope.ts). Null is full access: every key issued
 * before keeps it, and adding a nullable column with no default rewrites nothing.
 */
export class Migration20261128040000_api_key_scopes extends Migration {
  override name = 'Migration20261128040000_api_key_scopes';

  override up(): void {
    this.addSql(`ALTER TABLE api_keys ADD COLUMN scopes text[] CHECK (scopes IS NULL OR cardinality(scopes) > 0)`);
  }
}
