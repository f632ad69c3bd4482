// SQL text, not typed statements (decisions.md 184): a round's events are published by a CTE in
// the relay's own statement (publishEventsWith), positions given from a sequence under the
// relays' advisory lock and the tenants notified with pg_notify, all in that one statement.

/** The channel on which the relay tells API processes which tenants' feeds moved (a list of tenant ids, or `*`). */
export const EVENT_FEED_CHANNEL = 'event_feed';

/** NOTIFY payloads stop at 8,000 bytes: past that many characters of ids, every feed is woken. */
const MAX_TENANT_LIST = 7_900;

/** The relays' turn: a transaction-level advisory lock, held from the publish (publishEventsWith) to the commit. */
export const FEED_TURN_LOCK = 7_264_011_803_170_003n;

/**
 * Publishes a relay round's events ($2 their ids, in id order; $3 the same events as JSON,
 * publishParameters) at $1: their queue rows go (outbox_unpublished) and each gets the feed's next position, in that order, as a
 * narrow row of event_feed (decisions.md 142, 151); the 1 KB event row is not written. The relays'
 * turn (FEED_TURN_LOCK) is taken first and held from this statement to the commit (it is the last
 * of the round), so positions become visible in the order they were given and a consumer that
 * reads up to one never finds a lower one later. The round's block of positions is taken from the
 * sequence `event_feed_positions` by one setval under that turn (read after it: the scalar
 * subquery runs when `counter` projects its row, after `turn` gave it). A round that rolls back
 * leaves a gap, which a cursor steps over. The tenants whose feeds moved are told on
 * EVENT_FEED_CHANNEL, at the commit. A data-modifying CTE runs whether or not it is read.
 */
const PUBLISH_CTES = `turn AS (SELECT pg_advisory_xact_lock(${FEED_TURN_LOCK})),
  counter AS (
    SELECT setval('event_feed_positions', (SELECT last_value FROM event_feed_positions) + cardinality($2::text[])) - cardinality($2::text[]) AS base FROM turn),
  dequeued AS (DELETE FROM outbox_unpublished WHERE id = ANY($2::text[])),
  published AS (
    INSERT INTO event_feed (event_id, tenant_id, type, created_at, position, published_at)
    SELECT given.id, given.tenant_id, given.type, given.created_at, counter.base + given.n, $1
    FROM counter, ROWS FROM (json_to_recordset($3::json) AS (id text, tenant_id text, type text, created_at timestamptz)) WITH ORDINALITY AS given(id, tenant_id, type, created_at, n)
    RETURNING tenant_id),
  told AS (
    SELECT pg_notify('${EVENT_FEED_CHANNEL}', CASE WHEN length(tenants) > ${MAX_TENANT_LIST} THEN '*' ELSE tenants END)
    FROM (SELECT string_agg(DISTINCT tenant_id, ',') AS tenants FROM published) moved WHERE tenants IS NOT NULL)`;

/**
 * The publish, with another write of the round's in the same statement: `made`, a data-modifying
 * statement that returns `id` (its parameters numbered from $4), whose ids come back as one array.
 * One round trip instead of two, in the part of the round that holds the relays' turn. Both
 * scalar subqueries are read, so the notice is always sent.
 */
export const publishEventsWith = (made: string): string => `WITH ${PUBLISH_CTES},
  made AS (${made})
  SELECT (SELECT array_agg(id) FROM made) AS made, (SELECT count(*) FROM told) AS told`;

/**
 * The publish's parameters ($1–$3): the events' ids, and the events as JSON (json-rows.ts), in the
 * order given. An event's time goes back as it was read: in the relay's transaction PostgreSQL's
 * own text, which it reads back exactly.
 */
export function publishParameters(at: Date, events: readonly { id: string; tenant_id: string; type: string; created_at: Date | string }[]): [Date, string[], string] {
  return [at, events.map((e) => e.id), JSON.stringify(events.map((e) => ({ id: e.id, tenant_id: e.tenant_id, type: e.type, created_at: e.created_at })))];
}
