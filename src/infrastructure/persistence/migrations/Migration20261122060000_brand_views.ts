import { Migration } from '@mikro-orm/migrations';

// Each brand keeps its response JSON (the Brand object of the spec, compact, in its key order) in
// `view_json`, made by PostgreSQL whenever the row is written. A list then sends 20 stored texts
// instead of parsing 21 rows of 9 columns, ordering 42 themes and serialising them again: that was
// most of the API's own work per list request (docs/performance-analysis.md). A row trigger keeps
// it for every writer (the API, the bulk seeder, a hand-written UPDATE), in the writer's statement.
export class Migration20261122060000_brand_views extends Migration {
  override name = 'Migration20261122060000_brand_views';

  override up(): void {
    // The 14 theme fields in the spec's order, null where the stored theme lacks one (as
    // completeTheme does). `->` on json gives a value's text as stored, already valid JSON. The
    // list is written out, not taken from the domain: a migration must keep producing the SQL it
    // produced when it ran, whatever the model becomes (a new field gets a new migration).
    const field = (name: string) => `'"${name}":' || coalesce(t -> '${name}', 'null')::text`;
    const fields = [
      'borderColor',
      'buttonBackgroundColor',
      'buttonTextColor',
      'mutedTextColor',
      'pageBackgroundColor',
      'pageForegroundColor',
      'secondaryAccentColor',
      'sectionCardHighlightColor',
      'faviconFileId',
      'faviconUrl',
      'logoFileId',
      'logoUrl',
      'logoIconFileId',
      'logoIconUrl',
    ];
    this.addSql(`
      CREATE FUNCTION brand_theme_json(t json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT '{' || ${fields.map(field).join(` || ',' || `)} || '}'
      $$`);
    // to_json quotes and escapes a string as JSON does; timestamps as Date#toISOString writes them.
    this.addSql(`
      CREATE FUNCTION brands_render_view() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.view_json := '{"brandId":' || to_json(NEW.id)::text
          || ',"name":' || to_json(NEW.name)::text
          || ',"preferredAppearance":' || to_json(NEW.preferred_appearance)::text
          || ',"tenantId":' || to_json(NEW.tenant_id)::text
          || ',"themeLight":' || brand_theme_json(NEW.theme_light)
          || ',"themeDark":' || brand_theme_json(NEW.theme_dark)
          || CASE WHEN NEW.company_home_page IS NULL THEN '' ELSE ',"companyHomePage":' || to_json(NEW.company_home_page)::text END
          || ',"createdAt":"' || to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          || '","updatedAt":"' || to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          || '"}';
        RETURN NEW;
      END
      $$`);
    this.addSql(`ALTER TABLE brands ADD COLUMN view_json text`);
    this.addSql(`
      CREATE TRIGGER brands_render_view BEFORE INSERT OR UPDATE ON brands
        FOR EACH ROW EXECUTE FUNCTION brands_render_view()`);
    // Existing rows: the trigger renders each one on this no-op update.
    this.addSql(`UPDATE brands SET view_json = NULL`);
    this.addSql(`ALTER TABLE brands ALTER COLUMN view_json SET NOT NULL`);
  }
}
