/** The channel on which the relay tells API processes which tenants' feeds moved (a list of tenant ids, or `*`). */
export const EVENT_FEED_CHANNEL = 'event_feed';

/** NOTIFY payloads stop at 8,000 bytes: past that many characters of ids, every feed is woken. */
const MAX_TENANT_LIST = 7_900;

/**
 * Publishes a relay round's events ($2, in id order) at $1 and gives each the feed's next
 * position, in that order (decisions.md 142). The counter's one row is taken first: relays take
 * turns from this statement to their commit (it is the last of the round), so positions become
 * visible in the order they were given and a consumer that reads up to one never finds a lower one
 * later. The tenants whose feeds moved are told on EVENT_FEED_CHANNEL, at the commit.
 * `o.id = ANY($2)` repeats the join so that a worker, which plans each call with its values,
 * plans the events' days only (PlanKeeping, mikro-orm.config.ts).
 */
export const PUBLISH_EVENTS_SQL = `WITH counter AS (
    UPDATE event_feed_counter SET last_position = last_position + cardinality($2::text[]) RETURNING last_position - cardinality($2::text[]) AS base),
  numbered AS (SELECT id, n FROM unnest($2::text[]) WITH ORDINALITY AS given(id, n)),
  published AS (
    UPDATE outbox_events o SET published_at = $1, position = counter.base + numbered.n
    FROM counter, numbered WHERE o.id = numbered.id AND o.id = ANY($2::text[]) RETURNING o.tenant_id)
  SELECT pg_notify('${EVENT_FEED_CHANNEL}', CASE WHEN length(tenants) > ${MAX_TENANT_LIST} THEN '*' ELSE tenants END)
  FROM (SELECT string_agg(DISTINCT tenant_id, ',') AS tenants FROM published) moved WHERE tenants IS NOT NULL`;
