import { Migration } from '@mikro-orm/migrations';

// A page group's count of pages moves out of its row into narrow counter rows of their own.
// Every page created used to rewrite the group's whole row (its platform objects and its stored
// list JSON, some 3 KB) and re-render that JSON, and it held that row's lock until its commit was
// on disk: the pages of one group were committed one disk flush at a time, and the list and the
// UTM check stepped over the row's dead versions. Now a creation adds 1 to one of the group's
// eight rows (40 bytes each), chosen at random, so concurrent creations in one group
// rarely wait for each other and share their disk flushes; the group's row changes only when the
// platform changes the group. The count is the sum of the group's rows.
//
// Exactness stays as it was: every counter row carries `live`, kept by a trigger from the group's
// deleted_at (a delete updates all of the group's rows, so it waits for every creation in
// flight). A page's transaction increments `WHERE live`, so a delete that commits first makes it
// match nothing (the transaction rolls back, 404), and a delete that comes later waits for the
// counter's lock, as it waited for the group row's before.
// Written out, not imported: a migration must keep producing what it produced when it ran. The
// repository's PAGE_COUNTER_SHARDS matches it, held there by a test.
const COUNTER_SHARDS = 8;

export class Migration20261123000000_page_group_counters extends Migration {
  override name = 'Migration20261123000000_page_group_counters';

  override up(): void {
    // fillfactor: room on each page for the next versions of its rows, so updates stay HOT.
    this.addSql(`
      CREATE TABLE page_group_counters (
        page_group_id text COLLATE "C" NOT NULL REFERENCES page_groups (id) ON DELETE CASCADE,
        shard smallint NOT NULL CHECK (shard >= 0 AND shard < ${COUNTER_SHARDS}),
        tenant_id text COLLATE "C" NOT NULL,
        live boolean NOT NULL,
        pages_count integer NOT NULL DEFAULT 0 CHECK (pages_count >= 0),
        PRIMARY KEY (page_group_id, shard)
      ) WITH (fillfactor = 50)`);
    this.addSql(`
      INSERT INTO page_group_counters (page_group_id, shard, tenant_id, live, pages_count)
        SELECT id, shard, tenant_id, deleted_at IS NULL, CASE WHEN shard = 0 THEN pages_count ELSE 0 END
        FROM page_groups, generate_series(0, ${COUNTER_SHARDS - 1}) AS shard`);

    this.addSql(`
      CREATE FUNCTION page_groups_add_counter() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO page_group_counters (page_group_id, shard, tenant_id, live)
          SELECT NEW.id, shard, NEW.tenant_id, NEW.deleted_at IS NULL FROM generate_series(0, ${COUNTER_SHARDS - 1}) AS shard;
        RETURN NULL;
      END
      $$`);
    this.addSql(`CREATE TRIGGER page_groups_add_counter AFTER INSERT ON page_groups FOR EACH ROW EXECUTE FUNCTION page_groups_add_counter()`);
    this.addSql(`
      CREATE FUNCTION page_groups_follow_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE page_group_counters SET live = NEW.deleted_at IS NULL WHERE page_group_id = NEW.id;
        RETURN NULL;
      END
      $$`);
    this.addSql(`
      CREATE TRIGGER page_groups_follow_deletion AFTER UPDATE OF deleted_at ON page_groups
        FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) EXECUTE FUNCTION page_groups_follow_deletion()`);

    // The stored list item is now two texts around the count: view_head ends with
    // `"pagesCount":` and view_tail starts with `,"actions":`; the list puts the count between
    // them. Same key order and same bytes as Migration...070000 rendered (written out again here
    // because a migration must keep producing what it produced when it ran).
    const text = (column: string) => `coalesce(to_json(NEW.${column})::text, 'null')`;
    const iso = (column: string) =>
      `coalesce('"' || to_char(NEW.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
    this.addSql(`ALTER TABLE page_groups ADD COLUMN view_head text, ADD COLUMN view_tail text`);
    this.addSql(`
      CREATE OR REPLACE FUNCTION page_groups_render_view() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.view_head := '{"pageGroupId":' || ${text('id')}
          || ',"tenantId":' || ${text('tenant_id')}
          || ',"brandId":' || ${text('brand_id')}
          || ',"name":' || ${text('name')}
          || ',"title":' || ${text('title')}
          || ',"pageContext":' || ${text('page_context')}
          || ',"pageTemplateId":' || ${text('page_template_id')}
          || ',"headerActionId":' || ${text('header_action_id')}
          || ',"status":' || ${text('status')}
          || ',"pagesCount":';
        NEW.view_tail := ',"actions":' || NEW.actions::text
          || ',"footerLinks":' || NEW.footer_links::text
          || ',"scripts":' || NEW.scripts::text
          || ',"createdAt":' || ${iso('created_at')}
          || ',"updatedAt":' || ${iso('updated_at')}
          || ',"deletedAt":' || ${iso('deleted_at')}
          || '}';
        RETURN NEW;
      END
      $$`);
    this.addSql(`ALTER TABLE page_groups DROP COLUMN view_json, DROP COLUMN pages_count`);
    this.addSql(`UPDATE page_groups SET view_head = NULL`);
    this.addSql(`ALTER TABLE page_groups ALTER COLUMN view_head SET NOT NULL, ALTER COLUMN view_tail SET NOT NULL`);
  }
}
