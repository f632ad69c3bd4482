// SQL text, not typed statements (decisions.md 184): advisory locks per subscription and page,
// a walk of the stalled turns across the days' indexes and the call of webhook_pass_turns, a
// PL/pgSQL function of the schema (schema-exceptions.ts).

// The statements of ordered delivery's turns (decisions.md 145), shared by the relay that makes
// deliveries (relay-turns.ts) and the worker that passes turns on (SqlDeliveryTurns).
//
// Both take the page's turn lock (a transaction-level advisory lock per subscription and page)
// before they read the page's deliveries, in a statement of its own, and hold it to their commit.
// A relay that makes a waiting delivery and a worker that ends the one before it so take turns:
// whichever comes second sees what the first committed (READ COMMITTED: each statement's own
// snapshot), so a waiting delivery is never left behind a turn that has already passed.

/** A page's turn lock key: one definition for every taker. */
const TURN_LOCK_KEY = (subscription: string, key: string) => `hashtextextended('delivery-turn:' || ${subscription} || ' ' || ${key}, 0)`;

/** The turn locks of pairs ($1 subscription ids, $2 pages), taken in one order (no deadlock between two takers). */
const TURN_LOCKS = `count(pg_advisory_xact_lock(h))::int AS n
  FROM (SELECT DISTINCT ${TURN_LOCK_KEY('p.s', 'p.k')} AS h FROM unnest($1::text[], $2::text[]) AS p(s, k) ORDER BY h) locks`;

/** The relay's: its transaction publishes events, and commits as every write does. */
export const LOCK_TURNS_SQL = `SELECT ${TURN_LOCKS}`;

/**
 * The condition of a page's turn holder: one of its deliveries unfinished and not waiting.
 * Written so that only webhook_deliveries_turn_holders_idx (whose predicate is these words) is
 * implied: `IN ('pending', 'sending')` alone also matches the unfinished-deliveries index, which
 * stale statistics call empty, and a day's plan then read every pending delivery of the day to
 * find a page's.
 */
const HOLDER = (d: string) => `${d}.order_key IS NOT NULL AND ${d}.status IN ('pending', 'sending', 'waiting') AND ${d}.status <> 'waiting'`;

/**
 * The state of pairs' turns ($1 subscription ids, $2 pages): whether one of the page's deliveries
 * has the turn, and, only when none has, the lowest version among those waiting. Each a LIMIT 1
 * read of its index (turn holders, then the turns index of waiting deliveries by version): one
 * entry per day whatever the chain's length. A chain grows behind a holder (a receiver failing),
 * so the lowest waiting version is read only in the rare moment nobody holds the turn.
 */
export const TURN_STATES_SQL = `SELECT p.s AS subscription_id, p.k AS order_key, t.taken IS NOT NULL AS taken, w.order_seq AS earliest_waiting
  FROM unnest($1::text[], $2::text[]) AS p(s, k)
  LEFT JOIN LATERAL (SELECT true AS taken FROM webhook_deliveries b WHERE b.subscription_id = p.s AND b.order_key = p.k AND ${HOLDER('b')} LIMIT 1) t ON true
  LEFT JOIN LATERAL (SELECT w.order_seq FROM webhook_deliveries w
                     WHERE t.taken IS NULL AND w.subscription_id = p.s AND w.order_key = p.k AND w.order_key IS NOT NULL AND w.status = 'waiting'
                     ORDER BY w.order_seq LIMIT 1) w ON true`;

/**
 * Events other relays are relaying right now, of the kinds that are ordered: unpublished, before
 * this round's last ($1), not this round's ($2), of its tenants ($3) and kinds ($4). Relays claim
 * in id order (SKIP LOCKED), so these are the ones another round has locked: a few rounds' worth
 * at most, read from the relay's queue (outbox_unpublished).
 */
export const UNRELAYED_EARLIER_SQL = `SELECT o.tenant_id, o.type, o.body::text AS body
  FROM (SELECT id FROM outbox_unpublished WHERE id < $1 AND NOT (id = ANY($2::text[]))) q
  CROSS JOIN LATERAL (SELECT tenant_id, type, body FROM outbox_events o
                      WHERE o.id = q.id AND o.id < $1 AND o.tenant_id = ANY($3::text[]) AND o.type = ANY($4::text[]) LIMIT 1) o`;

/**
 * Passes pages' turns on ($1 subscription ids, $2 pages, $3 now), under their locks: each page's
 * waiting delivery of the lowest version becomes due now, unless one of the page's deliveries has
 * the turn already. `enqueued_at` now: the sweeper leaves it to the job made with it for a lease.
 * LATERAL keeps each page's reads on its indexes by (subscription, page), one entry per day: as a
 * NOT EXISTS, the planner made it an anti-join that read the whole index once per page.
 */
export const PASS_TURNS_SQL = `WITH p AS (SELECT DISTINCT s, k FROM unnest($1::text[], $2::text[]) AS p(s, k)),
  next AS (
    SELECT w.id, w.event_id FROM p
    LEFT JOIN LATERAL (SELECT 1 AS taken FROM webhook_deliveries b WHERE b.subscription_id = p.s AND b.order_key = p.k AND ${HOLDER('b')} LIMIT 1) t ON true
    CROSS JOIN LATERAL (SELECT w.id, w.event_id FROM webhook_deliveries w
                        WHERE w.subscription_id = p.s AND w.order_key = p.k AND w.order_key IS NOT NULL AND w.status = 'waiting'
                        ORDER BY w.order_seq, w.id LIMIT 1) w
    WHERE t.taken IS NULL)
  UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $3, enqueued_at = $3, updated_at = $3
  FROM next, webhook_subscriptions s WHERE d.id = next.id AND d.event_id = next.event_id AND s.id = d.subscription_id AND d.status = 'waiting'
  RETURNING d.id, d.event_id, d.tenant_id, d.subscription_id, d.order_key, d.attempt_count, s.url`;

/**
 * The worker's pass as one round trip (decisions.md 174): a function that takes the pairs' turn
 * locks, then passes their turns on (PASS_TURNS_SQL), each a statement of its own with its own
 * snapshot, as the lock's reason above asks, in the caller's one statement and transaction. Its
 * plans are kept for the session (generic: the pairs come as arrays), where the worker's other
 * statements are planned per call; sorting priced out (and so JIT off: connection/index-walk.ts
 * says why) so that the lowest waiting version is taken through the turns index, one entry per day (a
 * Merge Append with LIMIT 1; a young day's statistics made the planner sort every waiting
 * delivery of the page instead, which made draining a chain quadratic); and the commit does not
 * wait for the disk, as an attempt's record does (decisions.md 130): lost in a crash of
 * PostgreSQL, a pass leaves a turn nobody holds, which the sweeper passes on (STALLED_TURNS_SQL). Made by Migration20261206020000; a change to the statements
 * above is made there by a migration of its own.
 */
export const PASS_TURNS_FUNCTION_SQL = `CREATE OR REPLACE FUNCTION webhook_pass_turns(text[], text[], timestamptz)
  RETURNS TABLE (id text, event_id text, tenant_id text, subscription_id text, order_key text, attempt_count int, url text)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_sort = off SET jit = off AS $fn$
  #variable_conflict use_column
  BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM ${TURN_LOCKS};
    RETURN QUERY ${PASS_TURNS_SQL};
  END $fn$`;

/** Passes pages' turns on ($1 subscription ids, $2 pages, $3 now): the function above, in one statement. */
export const CALL_PASS_TURNS_SQL = 'SELECT * FROM webhook_pass_turns($1::text[], $2::text[], $3::timestamptz)';

/**
 * The next pages with deliveries waiting for their turn, after the pair ($1 subscription, $2 page),
 * at most $3 of them, among events made by now ($4, eventIdCeiling: the days after it are not
 * planned), each with whether nobody holds its turn (`stalled`). A skip scan of the turns index:
 * one step per page, one entry per day each (sorting priced out: rowsWalkingIndexes), so a sweep reads
 * $3 pages whatever their chains' lengths; the sweeper goes on from the last one at its next
 * sweep. Read without locks: a stalled page is passed on under its lock (PASS_TURNS_SQL decides
 * again).
 */
const NEXT_WAITING_PAGE = (after: string) => `SELECT w.tenant_id, w.subscription_id, w.order_key FROM webhook_deliveries w
     WHERE w.order_key IS NOT NULL AND w.status = 'waiting' AND w.event_id < $4 AND (w.subscription_id, w.order_key) > (${after})
     ORDER BY w.subscription_id, w.order_key LIMIT 1`;
export const STALLED_TURNS_SQL = `WITH RECURSIVE pages AS (
    (${NEXT_WAITING_PAGE('$1, $2')})
    UNION ALL
    SELECT n.* FROM pages p CROSS JOIN LATERAL (${NEXT_WAITING_PAGE('p.subscription_id, p.order_key')}) n)
  SELECT q.tenant_id, q.subscription_id, q.order_key,
         NOT EXISTS (SELECT 1 FROM webhook_deliveries b WHERE b.subscription_id = q.subscription_id AND b.order_key = q.order_key AND ${HOLDER('b')} AND b.event_id < $4) AS stalled
  FROM (SELECT * FROM pages LIMIT $3) q`;
