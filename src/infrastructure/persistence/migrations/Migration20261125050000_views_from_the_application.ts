import { Migration } from '@mikro-orm/migrations';

// The stored response JSON of brands (view_json) and page groups (view_head, view_tail) is
// rendered by the application from the same view function the API answers with, and written by
// every writer of the row in its own statement (stored-views.ts, decisions.md 77). The triggers
// that concatenated it in plpgsql go: one shape, defined once. The columns stay NOT NULL, so a
// writer that forgets them fails loudly instead of storing a stale item. Rows written before
// keep their text (the same JSON value; PostgreSQL printed nested arrays with spaces) until they
// are next written.
export class Migration20261125050000_views_from_the_application extends Migration {
  override name = 'Migration20261125050000_views_from_the_application';

  override up(): void {
    this.addSql(`DROP TRIGGER brands_render_view ON brands`);
    this.addSql(`DROP FUNCTION brands_render_view()`);
    this.addSql(`DROP FUNCTION brand_theme_json(json)`);
    this.addSql(`DROP TRIGGER page_groups_render_view ON page_groups`);
    this.addSql(`DROP FUNCTION page_groups_render_view()`);
  }
}
