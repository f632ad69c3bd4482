import { Migration } from '@mikro-orm/migrations';

// Each page group keeps its list item JSON (the spec's Page group, in its key order) in
// `view_json`, made by PostgreSQL whenever the row is written, as brands do (Migration...060000):
// the list sends the stored texts. Every write re-renders it, the count of pages included.
export class Migration20261122070000_page_group_views extends Migration {
  override name = 'Migration20261122070000_page_group_views';

  override up(): void {
    // to_json quotes and escapes as JSON does and gives NULL for NULL, hence the coalesces; the
    // jsonb arrays come out as PostgreSQL prints jsonb (valid JSON, a space after ':' and ',').
    const text = (column: string) => `coalesce(to_json(NEW.${column})::text, 'null')`;
    const iso = (column: string) =>
      `coalesce('"' || to_char(NEW.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
    this.addSql(`
      CREATE FUNCTION page_groups_render_view() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.view_json := '{"pageGroupId":' || ${text('id')}
          || ',"tenantId":' || ${text('tenant_id')}
          || ',"brandId":' || ${text('brand_id')}
          || ',"name":' || ${text('name')}
          || ',"title":' || ${text('title')}
          || ',"pageContext":' || ${text('page_context')}
          || ',"pageTemplateId":' || ${text('page_template_id')}
          || ',"headerActionId":' || ${text('header_action_id')}
          || ',"status":' || ${text('status')}
          || ',"pagesCount":' || NEW.pages_count::text
          || ',"actions":' || NEW.actions::text
          || ',"footerLinks":' || NEW.footer_links::text
          || ',"scripts":' || NEW.scripts::text
          || ',"createdAt":' || ${iso('created_at')}
          || ',"updatedAt":' || ${iso('updated_at')}
          || ',"deletedAt":' || ${iso('deleted_at')}
          || '}';
        RETURN NEW;
      END
      $$`);
    this.addSql(`ALTER TABLE page_groups ADD COLUMN view_json text`);
    this.addSql(`
      CREATE TRIGGER page_groups_render_view BEFORE INSERT OR UPDATE ON page_groups
        FOR EACH ROW EXECUTE FUNCTION page_groups_render_view()`);
    this.addSql(`UPDATE page_groups SET view_json = NULL`);
    this.addSql(`ALTER TABLE page_groups ALTER COLUMN view_json SET NOT NULL`);
  }
}
