import { Migration } from '@mikro-orm/migrations';

// Idempotency keys of POST requests, per tenant, kept 24 h (decisions.md; issue "Idempotency-Key").
export class Migration20261122030000_idempotency extends Migration {
  override name = 'Migration20261122030000_idempotency';

  override up(): void {
    this.addSql(`
      CREATE TABLE idempotency_keys (
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        locked_until timestamptz(3) NOT NULL,
        response_status integer,
        response_body text,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        PRIMARY KEY (tenant_id, key)
      )`);
    this.addSql(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }
}
