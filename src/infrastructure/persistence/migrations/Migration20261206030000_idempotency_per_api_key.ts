import { Migration } from '@mikro-orm/migrations';

/**
 * An Idempotency-Key belongs to the API key that sent it (decisions.md 175): a tenant's other key
 * repeating it runs its own request and never receives the first one's answer (which can hold a
 * subscription's signing secret). Answers kept before (at most 24 h old) belong to no key and are
 * not replayed again.
 */
export class Migration20261206030000_idempotency_per_api_key extends Migration {
  override name = 'Migration20261206030000_idempotency_per_api_key';

  override up(): void {
    this.addSql(`ALTER TABLE idempotency_keys ADD COLUMN api_key_id text COLLATE "C" NOT NULL DEFAULT ''`);
    this.addSql(`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (tenant_id, api_key_id, key)`);
  }
}
