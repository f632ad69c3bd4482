import { publishEventsWith } from '../outbox/event-feed.sql';

// SQL text, not a typed statement (decisions.md 184): a round's deliveries are one INSERT … SELECT
// from one JSON parameter (json_to_recordset: the same text whatever the batch), ON CONFLICT DO
// NOTHING on the unique key, and the round's last chunk publishes its events in the same statement.

/** The deliveries' insert: `rows` the parameter of their JSON (json-rows.ts), `now` the round's time. */
const insertSql = (rows: string, now: string) => `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, order_key, order_seq, subject_id)
  SELECT id, tenant_id, subscription_id, event_id, event_type, CASE WHEN waiting THEN 'waiting' ELSE 'pending' END, 0,
         CASE WHEN held OR waiting THEN NULL ELSE ${now}::timestamptz END, ${now}, ${now}, order_key, order_seq, subject_id
  FROM json_to_recordset(${rows}::json)
    AS d(id text, tenant_id text, subscription_id text, event_id text, event_type text, held bool, waiting bool, order_key text, order_seq bigint, subject_id text)
  ON CONFLICT (event_id, subscription_id, manual_id) DO NOTHING RETURNING id`;
export const INSERT_SQL = insertSql('$1', '$2');
/** The round's last chunk and its publish: publishParameters, then the rows ($4). */
export const INSERT_AND_PUBLISH_SQL = publishEventsWith(insertSql('$4', '$1'));

