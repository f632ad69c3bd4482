import { PACE_COLUMNS_TEXT } from '../stored/webhook-subscription-columns';

// SQL text, not typed statements (decisions.md 184): held deliveries are found through the
// partial index webhook_deliveries_held_idx, whose predicate (HELD) each statement repeats word
// for word with its statuses as literals; the subscriptions that hold some are found by a
// recursive skip scan; a release writes a page of times from parameter arrays (unnest).

/** A held delivery: pending, no time set (parked), scheduled (a manual one is never held). */
const HELD = `status IN ('pending', 'sending') AND next_attempt_at IS NULL AND manual_id IS NULL`;

/** The first subscription after `after` (in id order) with a held delivery: one step of a skip scan. */
const NEXT_HOLDING = (after: string) => `SELECT subscription_id FROM webhook_deliveries WHERE ${HELD} AND subscription_id > ${after} ORDER BY subscription_id LIMIT 1`;

/** Parks delivery $1 at attempt count $2; its lease ends at $3 rather than being cleared (wakeProbe prefers those never claimed). */
export const HOLD = `UPDATE webhook_deliveries SET next_attempt_at = NULL, paced_slot_at = NULL, locked_until = $3, enqueued_at = NULL, updated_at = $3
       WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'sending')`;

/** Parks up to $3 of subscription $1's scheduled deliveries whose lease ended by $2; answers how many. */
export const HOLD_ALL = `WITH held AS (
         UPDATE webhook_deliveries SET next_attempt_at = NULL, paced_slot_at = NULL, enqueued_at = NULL, updated_at = $2
         WHERE (id, event_id) IN (SELECT id, event_id FROM webhook_deliveries
                      WHERE subscription_id = $1 AND status IN ('pending', 'sending') AND manual_id IS NULL AND next_attempt_at IS NOT NULL
                        AND (locked_until IS NULL OR locked_until < $2)
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM held`;

/** Up to $2 subscriptions after $1 (in id order) with a held delivery, with their state: a skip scan of webhook_deliveries_held_idx. */
export const HOLDING = `WITH RECURSIVE held AS (
         (${NEXT_HOLDING('$1')})
         UNION ALL
         SELECT n.subscription_id FROM held h CROSS JOIN LATERAL (${NEXT_HOLDING('h.subscription_id')}) n)
       SELECT s.id, s.tenant_id, s.url, s.active, s.deleted_at IS NOT NULL AS deleted, s.breaker_probe_at, ${PACE_COLUMNS_TEXT}
       FROM (SELECT subscription_id FROM held LIMIT $2) h
       CROSS JOIN LATERAL (SELECT * FROM webhook_subscriptions s WHERE s.id = h.subscription_id) s`;

/** One held delivery of subscription $1 due at $2 as the breaker's probe: never claimed first, then in turns after $3. */
export const WAKE_PROBE = `UPDATE webhook_deliveries SET next_attempt_at = $2, enqueued_at = $2, updated_at = $2
       WHERE (id, event_id) = (SELECT id, event_id FROM webhook_deliveries WHERE subscription_id = $1 AND ${HELD}
                   ORDER BY (attempt_count = 0 AND locked_until IS NULL) DESC, (id < coalesce($3, '~')) DESC, id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, event_id, attempt_count + 1 AS attempt`;

/** A page of $2 of subscription $1's held deliveries, locked. */
export const RELEASE_PAGE = `SELECT id, event_id, attempt_count + 1 AS attempt FROM webhook_deliveries WHERE subscription_id = $1 AND ${HELD} ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`;

/** Their times ($1 ids, $2 times, $4 event ids), handed to the queue at $3. */
export const RELEASE = `UPDATE webhook_deliveries d SET next_attempt_at = r.at, enqueued_at = $3, updated_at = $3
       FROM unnest($1::text[], $2::timestamptz[], $4::text[]) AS r(id, at, event_id) WHERE d.id = r.id AND d.event_id = r.event_id`;
