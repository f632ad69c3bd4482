import { Migration } from '@mikro-orm/migrations';

// Ids are TypeIDs kept as text with the "C" collation, so that byte order is creation order and
// every list is an index range scan on (tenant_id, id). Timestamps keep milliseconds, as JSON does.
export class Migration20261122000000_foundation extends Migration {
  override name = 'Migration20261122000000_foundation';

  override up(): void {
    this.addSql(`
      CREATE TABLE tenants (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz(3) NOT NULL
      )`);
    this.addSql(`
      CREATE TABLE api_keys (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        key_hash text NOT NULL,
        display_prefix text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        revoked_at timestamptz(3)
      )`);
    this.addSql(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    this.addSql(`CREATE INDEX api_keys_tenant_id_idx ON api_keys (tenant_id, id)`);
    this.addSql(`
      CREATE TABLE brands (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        preferred_appearance text NOT NULL CHECK (preferred_appearance IN ('system', 'light', 'dark')),
        theme_light jsonb NOT NULL,
        theme_dark jsonb NOT NULL,
        company_home_page text,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    this.addSql(`CREATE INDEX brands_tenant_id_id_idx ON brands (tenant_id, id DESC)`);
  }
}
