import { Migration } from '@mikro-orm/migrations';

// UTM values come from visitors' query strings, so a group can gather any number of them. The
// statement trigger of Migration20261122040000 rebuilt a group's whole JSON for each new value:
// linear per value, quadratic in total (2.2 ms at 1,000 values, 15 ms at 12,000), and the answer
// grew without bound. Now (decisions.md 64):
// - each value keeps when it was last seen (bumped at most hourly), indexed per kind by recency,
//   so recording a session is one index upsert whatever the group's size;
// - a new or re-ranked value only moves the group summary's `generation` on;
// - the summary is re-rendered by the next read, from the most recent values of each kind
//   (bounded), and kept with the generation it was rendered from.
export class Migration20261125010000_utm_values_bounded extends Migration {
  override name = 'Migration20261125010000_utm_values_bounded';

  override up(): void {
    this.addSql(`DROP TRIGGER page_group_utm_values_summarise ON page_group_utm_values`);
    this.addSql(`DROP FUNCTION page_group_utm_values_summarise()`);
    this.addSql(`DROP FUNCTION page_group_utm_json(text)`);
    this.addSql(`ALTER TABLE page_group_utm_values ADD COLUMN last_seen_at timestamptz(3) NOT NULL DEFAULT now()`);
    this.addSql(`CREATE INDEX page_group_utm_values_recent_idx ON page_group_utm_values (page_group_id, kind, last_seen_at DESC) INCLUDE (value)`);
    this.addSql(`ALTER TABLE page_group_utm_summaries ALTER COLUMN body DROP NOT NULL`);
    // Existing summaries were rendered without a bound: render them again on their next read.
    this.addSql(`ALTER TABLE page_group_utm_summaries ADD COLUMN generation bigint NOT NULL DEFAULT 1, ADD COLUMN body_generation bigint NOT NULL DEFAULT 0`);
  }
}
