import { DELIVERY_STATE_COLUMNS } from './subscription-delivery-state.sql';

// SQL text, not typed statements (decisions.md 184): the relay's round claims queue rows with
// FOR UPDATE SKIP LOCKED in MATERIALIZED CTEs, reads each event by key through a LATERAL … LIMIT 1
// and the tenants' subscriptions as one JSON array on the first row, with the days' bounds
// written so that the planner prunes partitions; requests are found through a partial index
// whose predicate is repeated with its literals.

/**
 * A round's events: the queued ones (outbox_unpublished, decisions.md 151) in id order, from the
 * first, or from the lowest id the relay was told of (CLAIM_EVENTS_FROM_SQL; relay.loop.ts says
 * why; the floor is repeated on the events so that a worker's per-call plans leave out the days
 * below it). $2 is eventIdCeiling of the round's time: it leaves out the days made ahead, which
 * hold no event yet (planning the claim from today over those 14 days took 0.26–0.34 ms a round
 * at rest, 0.09–0.10 without them); an event made on a clock more than CLOCK_SKEW_MS ahead of the
 * relay's waits in the queue until the relay's clock nears it, as the sweeper's bound does. The
 * queue rows are locked, not the 1 KB event rows. Each event is then read by its
 * key (LATERAL … LIMIT 1: a join the planner may not turn into a walk of every event's key, which
 * it chose for a plain join whenever the tables' statistics were young). A health event names the
 * subscription it is about, which never receives it (wantsEvent); only those bodies are parsed.
 */
const CLAIM_COLUMNS = `e.id, e.tenant_id, e.type, e.created_at, CASE WHEN e.type LIKE 'webhook\\_subscription.%' THEN e.body::json->'data'->>'id' END AS about, e.body, e.traceparent, e.tracestate`;
/**
 * The live subscriptions of the claimed events' tenants, as one JSON array on the round's first
 * row only (null on the others): read in the claim's round trip instead of one of their own.
 * The tenants go to the index as one array (an InitPlan), so the look-up is by key whatever the
 * planner thinks of the claimed rows' count.
 */
const SUBSCRIPTIONS_COLUMN = `CASE WHEN row_number() OVER (ORDER BY e.id) = 1 THEN (SELECT coalesce(json_agg(s), '[]') FROM (
    SELECT ${DELIVERY_STATE_COLUMNS}, tenant_id, url, delivery_filter, ordering FROM webhook_subscriptions
    WHERE tenant_id = ANY (ARRAY(SELECT DISTINCT tenant_id FROM claimed)) AND active AND deleted_at IS NULL) s) END AS subscriptions`;
const claimSql = (queued: string, event: string) => `WITH q AS MATERIALIZED (SELECT id FROM outbox_unpublished${queued} ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED),
  claimed AS MATERIALIZED (SELECT o.* FROM q
    CROSS JOIN LATERAL (SELECT id, tenant_id, type, created_at, body, traceparent, tracestate FROM outbox_events o WHERE o.id = q.id${event} LIMIT 1) o)
  SELECT ${CLAIM_COLUMNS}, ${SUBSCRIPTIONS_COLUMN} FROM claimed e
  ORDER BY e.id`;
export const CLAIM_EVENTS_SQL = claimSql('', ' AND o.id < $2');
export const CLAIM_EVENTS_FROM_SQL = claimSql(' WHERE id >= $3', ' AND o.id >= $3 AND o.id < $2');

/**
 * Manual deliveries not yet handed to the queue, through webhook_deliveries_requested_idx. The
 * limit is written into the text (the relay's fixed batch): with no parameter a worker plans it
 * once per connection instead of over every day each round.
 */
export const requestedWaiting = (limit: number) =>
  `SELECT id, event_id FROM webhook_deliveries WHERE manual_id IS NOT NULL AND enqueued_at IS NULL AND status = 'pending' ORDER BY id LIMIT ${limit}`;

/** Hands requests $2 (of events $3) to the queue at $1, unless another relay took them meanwhile. */
export const TAKE_REQUESTED = `UPDATE webhook_deliveries d SET enqueued_at = $1
       FROM webhook_subscriptions s
       WHERE d.event_id = ANY($3::text[]) AND d.id = ANY($2::text[]) AND d.manual_id IS NOT NULL AND d.enqueued_at IS NULL AND d.status = 'pending' AND s.id = d.subscription_id
       RETURNING d.id, d.event_id, d.tenant_id, s.url`;
