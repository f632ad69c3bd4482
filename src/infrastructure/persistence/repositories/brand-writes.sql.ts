import { outboxInsert } from '../outbox/outbox.writer';

// SQL text, not a typed statement (decisions.md 184): each write is one statement whose CTEs write
// the brand and the events it recorded (outboxInsert), only if the brand's row was written; its
// row version is the tuple's xmin, a system column the entities do not map.

/** The brands columns a write sets (but the stored view), in the order of the statements' parameters. */
const COLUMNS = 'id, tenant_id, name, preferred_appearance, theme_light, theme_dark, company_home_page, created_at, updated_at';

/**
 * A row version: the xmin of the row's current tuple (every write changes it) with its
 * updated_at (every write moves it forward). xmin alone could in theory come round again (a
 * transaction id reused after wraparound, or after the database is restored to an earlier
 * point while this process kept a copy); both together cannot.
 */
export const ROW_VERSION = `xmin::text || ' ' || updated_at::text`;

/** The brand, its stored view and its events; answers the row version. */
export const INSERT_BRAND = `WITH brand AS (
    INSERT INTO brands (${COLUMNS}, view_json) VALUES ($1, $2, $3, $4, $5::json, $6::json, $7, $8, $9, $10) RETURNING ${ROW_VERSION} AS version),
  event AS (${outboxInsert(11, { after: 'brand' })})
  SELECT version FROM brand`;

/** With $10, a row version: only if the row is still that version (save with ifUnchanged). */
export const UPDATE_BRAND = `WITH brand AS (
    UPDATE brands SET name = $1, preferred_appearance = $2, theme_light = $3::json, theme_dark = $4::json, company_home_page = $5, updated_at = $6,
      view_json = $7
    WHERE id = $8 AND tenant_id = $9 AND ($10::text IS NULL OR ${ROW_VERSION} = $10::text) RETURNING ${ROW_VERSION} AS version),
  event AS (${outboxInsert(11, { after: 'brand' })})
  SELECT version FROM brand`;
