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

/** Takes the turn locks of pairs ($1 subscription ids, $2 pages), in one order (no deadlock between two relays). */
export const LOCK_TURNS_SQL = `SELECT count(pg_advisory_xact_lock(h))::int AS n
  FROM (SELECT DISTINCT ${TURN_LOCK_KEY('p.s', 'p.k')} AS h FROM unnest($1::text[], $2::text[]) AS p(s, k) ORDER BY h) locks`;

/** Takes one page's turn lock ($1 subscription id, $2 page). */
export const LOCK_TURN_SQL = `SELECT pg_advisory_xact_lock(${TURN_LOCK_KEY('$1::text', '$2::text')})`;

/**
 * The state of pairs' turns ($1 subscription ids, $2 pages): whether one of the page's deliveries
 * has the turn, and the lowest version among those waiting. Through webhook_deliveries_turns_idx.
 */
export const TURN_STATES_SQL = `SELECT p.s AS subscription_id, p.k AS order_key,
    coalesce(bool_or(d.status IN ('pending', 'sending')), false) AS taken,
    min(d.order_seq) FILTER (WHERE d.status = 'waiting') AS earliest_waiting
  FROM unnest($1::text[], $2::text[]) AS p(s, k)
  JOIN webhook_deliveries d ON d.subscription_id = p.s AND d.order_key = p.k AND d.order_key IS NOT NULL AND d.status IN ('pending', 'sending', 'waiting')
  GROUP BY p.s, p.k`;

/**
 * Events other relays are relaying right now, of the kinds that are ordered: unpublished, before
 * this round's last ($1), not this round's ($2), of its tenants ($3) and kinds ($4). Relays claim
 * in id order (SKIP LOCKED), so these are the ones another round has locked: a few rounds' worth
 * at most, through outbox_events_unpublished_idx.
 */
export const UNRELAYED_EARLIER_SQL = `SELECT tenant_id, type, body::text AS body FROM outbox_events
  WHERE published_at IS NULL AND id < $1 AND NOT (id = ANY($2::text[])) AND tenant_id = ANY($3::text[]) AND type = ANY($4::text[])`;

/**
 * Passes one page's turn on ($1 subscription, $2 page, $3 now), under its lock: the waiting
 * delivery of the lowest version becomes due now, unless one of the page's deliveries has the
 * turn already. `enqueued_at` now: the sweeper leaves it to the job made with it for a lease.
 */
export const PASS_TURN_SQL = `WITH taken AS (
    SELECT 1 FROM webhook_deliveries WHERE subscription_id = $1 AND order_key = $2 AND order_key IS NOT NULL AND status IN ('pending', 'sending') LIMIT 1),
  next AS (
    SELECT id FROM webhook_deliveries WHERE subscription_id = $1 AND order_key = $2 AND order_key IS NOT NULL AND status = 'waiting' AND NOT EXISTS (SELECT 1 FROM taken)
    ORDER BY order_seq, id LIMIT 1)
  UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $3, enqueued_at = $3, updated_at = $3
  FROM next, webhook_subscriptions s WHERE d.id = next.id AND s.id = d.subscription_id AND d.status = 'waiting'
  RETURNING d.id, d.tenant_id, d.attempt_count, s.url`;

/**
 * Turns nobody holds while deliveries wait for them ($1 at most): pages of an ordered
 * subscription with a waiting delivery and none with the turn. Read without locks: each is passed
 * on under its lock (PASS_TURN_SQL decides again).
 */
export const STALLED_TURNS_SQL = `SELECT DISTINCT w.tenant_id, w.subscription_id, w.order_key FROM webhook_deliveries w
  WHERE w.order_key IS NOT NULL AND w.status = 'waiting'
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries b
                    WHERE b.subscription_id = w.subscription_id AND b.order_key = w.order_key AND b.order_key IS NOT NULL AND b.status IN ('pending', 'sending'))
  LIMIT $1`;
