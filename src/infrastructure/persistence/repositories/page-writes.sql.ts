import { outboxInsert } from '../outbox/outbox.writer';

// SQL text, not typed statements (decisions.md 184): a page's creation and a new version are each
// one statement whose CTEs take the group's counter row, write the page and its version and the
// events they recorded (outboxInsert), each part only if the one before it wrote its row.

/** Each group's count of pages is spread over this many rows (Migration...20261123000000). */
export const PAGE_COUNTER_SHARDS = 8;

/** The page, its version 1 and their events, counted on one of the group's counter rows (SqlPageRepository.add). */
export const CREATE_PAGE = `
  WITH p AS (SELECT $1::text AS page_group_id, $2::int AS shard, $3::text AS tenant_id),
  free AS (
    SELECT c.shard FROM page_group_counters c, p
    WHERE c.page_group_id = p.page_group_id AND c.tenant_id = p.tenant_id AND c.live
    ORDER BY (c.shard + ${PAGE_COUNTER_SHARDS} - p.shard) % ${PAGE_COUNTER_SHARDS}
    LIMIT 1 FOR UPDATE OF c SKIP LOCKED),
  counted AS (
    UPDATE page_group_counters c SET pages_count = c.pages_count + 1
    FROM p
    WHERE c.page_group_id = p.page_group_id AND c.shard = coalesce((SELECT shard FROM free), p.shard) AND c.tenant_id = p.tenant_id AND c.live
    RETURNING c.page_group_id, c.tenant_id),
  page AS (
    INSERT INTO pages (id, tenant_id, page_group_id, page_template_id, supplementary_context, created_at, updated_at)
    SELECT $4::text, tenant_id, page_group_id, $5::text, $6::text, $7::timestamptz, $8::timestamptz FROM counted
    RETURNING id, tenant_id, page_group_id),
  version AS (
    INSERT INTO page_versions (id, tenant_id, page_id, page_group_id, number, page_template_id, supplementary_context, created_at)
    SELECT $9::text, tenant_id, id, page_group_id, $10::int, $5::text, $6::text, $11::timestamptz FROM page
    RETURNING tenant_id),
  event AS (${outboxInsert(12, { after: 'version' })})
  SELECT count(*)::int AS n FROM counted`;

/** A version, the page's new content and their events (SqlPageVersionRepository.add). */
export const CREATE_VERSION = `
  WITH version AS (
    INSERT INTO page_versions (id, tenant_id, page_id, page_group_id, number, page_template_id, supplementary_context, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    RETURNING page_id, tenant_id, page_template_id, supplementary_context),
  page AS (
    UPDATE pages p SET page_template_id = v.page_template_id, supplementary_context = v.supplementary_context, updated_at = $9
    FROM version v WHERE p.id = v.page_id AND p.tenant_id = v.tenant_id
    RETURNING 1)
  ${outboxInsert(10, { after: 'version' })}`;
