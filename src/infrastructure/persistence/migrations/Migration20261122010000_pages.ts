import { Migration } from '@mikro-orm/migrations';

// Page groups, pages, versions, sessions, templates and the transactional outbox.
export class Migration20261122010000_pages extends Migration {
  override name = 'Migration20261122010000_pages';

  override up(): void {
    this.addSql(`
      CREATE TABLE templates (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" REFERENCES tenants (id),
        source_page_template_id text COLLATE "C",
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        description text,
        template_content text NOT NULL,
        is_editable boolean NOT NULL,
        is_system boolean NOT NULL,
        version integer NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3),
        CHECK (is_system = (tenant_id IS NULL))
      )`);
    this.addSql(`CREATE INDEX templates_tenant_id_id_idx ON templates (tenant_id, id)`);
    this.addSql(`
      CREATE TABLE page_groups (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        brand_id text COLLATE "C" REFERENCES brands (id),
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        title text,
        page_context text,
        page_template_id text COLLATE "C" REFERENCES templates (id),
        header_action_id text,
        status text NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
        pages_count integer NOT NULL DEFAULT 0 CHECK (pages_count >= 0),
        actions json NOT NULL DEFAULT '[]',
        footer_links json NOT NULL DEFAULT '[]',
        scripts json NOT NULL DEFAULT '[]',
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        deleted_at timestamptz(3)
      )`);
    // actions, footerLinks and scripts are json, not jsonb: returned byte for byte as stored.
    // The list reads live groups only, with or without a status filter.
    this.addSql(`CREATE INDEX page_groups_live_idx ON page_groups (tenant_id, id DESC) WHERE deleted_at IS NULL`);
    this.addSql(`CREATE INDEX page_groups_live_status_idx ON page_groups (tenant_id, status, id DESC) WHERE deleted_at IS NULL`);
    this.addSql(`
      CREATE TABLE pages (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        page_group_id text COLLATE "C" NOT NULL REFERENCES page_groups (id),
        page_template_id text COLLATE "C" REFERENCES templates (id),
        supplementary_context text CHECK (char_length(supplementary_context) BETWEEN 1 AND 10000),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    this.addSql(`CREATE INDEX pages_group_id_idx ON pages (page_group_id, id DESC)`);
    this.addSql(`
      CREATE TABLE page_versions (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        page_id text COLLATE "C" NOT NULL REFERENCES pages (id),
        page_group_id text COLLATE "C" NOT NULL REFERENCES page_groups (id),
        number integer NOT NULL CHECK (number >= 1),
        created_at timestamptz(3) NOT NULL,
        CONSTRAINT page_versions_page_number_key UNIQUE (page_id, number)
      )`);
    this.addSql(`
      CREATE TABLE page_sessions (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        page_id text COLLATE "C" NOT NULL REFERENCES pages (id),
        page_group_id text COLLATE "C" NOT NULL REFERENCES page_groups (id),
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        created_at timestamptz(3) NOT NULL
      )`);
    this.addSql(`CREATE INDEX page_sessions_page_id_idx ON page_sessions (page_id, id)`);
    // Distinct UTM values per group, upserted when a session is recorded: the UTM endpoint reads
    // this small table (an index-only scan) instead of scanning millions of sessions.
    this.addSql(`
      CREATE TABLE page_group_utm_values (
        page_group_id text COLLATE "C" NOT NULL REFERENCES page_groups (id),
        kind text NOT NULL CHECK (kind IN ('campaign', 'content', 'medium', 'source', 'term')),
        value text COLLATE "C" NOT NULL,
        PRIMARY KEY (page_group_id, kind, value)
      )`);
    // The transactional outbox: written with the change, read by the webhook relay. `body` holds
    // the exact bytes every delivery of the event will carry.
    this.addSql(`
      CREATE TABLE outbox_events (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
        type text NOT NULL,
        body text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        published_at timestamptz(3)
      )`);
    this.addSql(`CREATE INDEX outbox_events_unpublished_idx ON outbox_events (id) WHERE published_at IS NULL`);
  }
}
