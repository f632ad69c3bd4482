// SQL text, not a typed statement (decisions.md 184): the sweep takes its rows with FOR UPDATE SKIP
// LOCKED in a CTE and hands them to the queue in the same statement, with the days' bound repeated
// on both sides of the join so that the planner prunes the days after it.

/**
 * Deliveries due by $1 with no live job ($2 now, $3 at most, $4 the first attempt's grace) of
 * events made by now ($5, eventIdCeiling): the days after it hold none, and are not planned. Only
 * those handed to the queue before $6 (a first attempt when the relay made it): the queue's oldest
 * waiting job was added then, and one handed to it since may still wait behind it. The
 * days before it are read through their partial index of unfinished deliveries, empty (one page)
 * for a day whose deliveries have all ended. SKIP LOCKED: two workers' sweeps share the stranded
 * rows instead of both taking each.
 */
export const STRANDED_SQL = `WITH stranded AS (
    SELECT id, event_id FROM webhook_deliveries
    WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $2)
      AND (enqueued_at IS NULL OR enqueued_at <= $1)
      AND (attempt_count > 0 OR manual_id IS NOT NULL OR next_attempt_at <= $4)
      AND coalesce(enqueued_at, created_at) < $6
      AND event_id < $5
    ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
  UPDATE webhook_deliveries d SET enqueued_at = $2
  FROM stranded, webhook_subscriptions s
  WHERE d.id = stranded.id AND d.event_id = stranded.event_id AND d.event_id < $5 AND s.id = d.subscription_id
  RETURNING d.id, d.event_id, d.attempt_count, d.tenant_id, s.url`;

