import { Migration } from '@mikro-orm/migrations';

// Webhook subscriptions, their deliveries (one per event and subscription) and the attempts log.
export class Migration20261122020000_webhooks extends Migration {
  override name = 'Migration20261122020000_webhooks';

  override up(): void {
    this.addSql(`
      CREATE TABLE webhook_subscriptions (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        url text NOT NULL CHECK (char_length(url) <= 2048),
        events text[] NOT NULL CHECK (cardinality(events) >= 1),
        active boolean NOT NULL,
        -- AES-256-GCM, see SecretCipher; never the plain secret.
        signing_secret_encrypted text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        deleted_at timestamptz(3)
      )`);
    this.addSql(`CREATE INDEX webhook_subscriptions_live_idx ON webhook_subscriptions (tenant_id, id DESC) WHERE deleted_at IS NULL`);
    this.addSql(`
      CREATE TABLE webhook_deliveries (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        subscription_id text COLLATE "C" NOT NULL REFERENCES webhook_subscriptions (id),
        event_id text COLLATE "C" NOT NULL REFERENCES outbox_events (id),
        event_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed', 'cancelled')),
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3),
        locked_until timestamptz(3),
        last_status_code integer,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        finished_at timestamptz(3),
        -- The real guard against duplicates: one delivery per event and subscription.
        CONSTRAINT webhook_deliveries_event_subscription_key UNIQUE (event_id, subscription_id)
      )`);
    // The sweeper's scan: only unfinished deliveries are in this index.
    this.addSql(`CREATE INDEX webhook_deliveries_unfinished_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending')`);
    this.addSql(`
      CREATE TABLE webhook_delivery_attempts (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        delivery_id text COLLATE "C" NOT NULL REFERENCES webhook_deliveries (id),
        subscription_id text COLLATE "C" NOT NULL REFERENCES webhook_subscriptions (id),
        event_id text COLLATE "C" NOT NULL,
        event_type text NOT NULL,
        attempt_number integer NOT NULL,
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        next_attempt_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        CONSTRAINT webhook_delivery_attempts_number_key UNIQUE (delivery_id, attempt_number)
      )`);
    this.addSql(`CREATE INDEX webhook_delivery_attempts_subscription_idx ON webhook_delivery_attempts (subscription_id, id DESC)`);
  }
}
