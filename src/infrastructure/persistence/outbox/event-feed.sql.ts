/** The channel on which the relay tells API processes which tenants' feeds moved (a list of tenant ids, or `*`). */
export const EVENT_FEED_CHANNEL = 'event_feed';

/** NOTIFY payloads stop at 8,000 bytes: past that many characters of ids, every feed is woken. */
const MAX_TENANT_LIST = 7_900;

/** The relays' turn: a transaction-level advisory lock, held from PUBLISH_EVENTS_SQL to the commit. */
export const FEED_TURN_LOCK = 7_264_011_803_170_003n;

/**
 * Publishes a relay round's events ($2, in id order) at $1 and gives each the feed's next
 * position, in that order (decisions.md 142). The relays' turn (FEED_TURN_LOCK) is taken first
 * and held from this statement to the commit (it is the last of the round), so positions become
 * visible in the order they were given and a consumer that reads up to one never finds a lower one
 * later. The round's block of positions is taken from the sequence `event_feed_positions` by one
 * setval under that turn (read after it: the scalar subquery runs when `counter` projects its row,
 * after `turn` gave it). A round that rolls back leaves a gap, which a cursor steps over. The
 * tenants whose feeds moved are told on EVENT_FEED_CHANNEL, at the commit.
 * `o.id = ANY($2)` repeats the join so that a worker, which plans each call with its values,
 * plans the events' days only (PlanKeeping, mikro-orm.config.ts).
 */
export const PUBLISH_EVENTS_SQL = `WITH turn AS (SELECT pg_advisory_xact_lock(${FEED_TURN_LOCK})),
  counter AS (
    SELECT setval('event_feed_positions', (SELECT last_value FROM event_feed_positions) + cardinality($2::text[])) - cardinality($2::text[]) AS base FROM turn),
  numbered AS (SELECT id, n FROM unnest($2::text[]) WITH ORDINALITY AS given(id, n)),
  published AS (
    UPDATE outbox_events o SET published_at = $1, position = counter.base + numbered.n
    FROM counter, numbered WHERE o.id = numbered.id AND o.id = ANY($2::text[]) RETURNING o.tenant_id)
  SELECT pg_notify('${EVENT_FEED_CHANNEL}', CASE WHEN length(tenants) > ${MAX_TENANT_LIST} THEN '*' ELSE tenants END)
  FROM (SELECT string_agg(DISTINCT tenant_id, ',') AS tenants FROM published) moved WHERE tenants IS NOT NULL`;
