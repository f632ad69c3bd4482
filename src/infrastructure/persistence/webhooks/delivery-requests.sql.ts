import { outboxInsert } from '../outbox/outbox.writer';

// SQL text, not typed statements (decisions.md 184): statements that must match a partial
// index's predicate (webhook_deliveries_recoverable_idx, _manual_waiting_idx) repeat it word for
// word with its statuses as literals, which PostgreSQL needs to prove the index applies (a
// builder makes them parameters); the test delivery writes its event and its one delivery in one
// statement (outboxInsert).

/** A manual delivery row: `manual_id` is its own id; the relay hands it to the queue (enqueued_at NULL). */
const INSERT_MANUAL = `INSERT INTO webhook_deliveries
  (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, manual_id, redelivery_of, subject_id)`;

/** Delivery `d` has a redelivery in one of `statuses`. */
const redeliveryIn = (...statuses: string[]) =>
  `EXISTS (SELECT 1 FROM webhook_deliveries m WHERE m.redelivery_of = d.id AND m.status IN (${statuses.map((s) => `'${s}'`).join(', ')}))`;
/** A redelivery of it waits or is being made, or (recovery leaves those alone too) one has succeeded. */
const REDELIVERY_WAITING = redeliveryIn('pending', 'sending');
const REDELIVERY_WAITING_OR_DONE = redeliveryIn('pending', 'sending', 'delivered');

/** A delivery's original: itself, or the delivery it redelivers ($1 delivery, $2 subscription, $3 tenant). */
export const ORIGIN_OF = 'SELECT coalesce(redelivery_of, id) AS origin FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2 AND tenant_id = $3';

/**
 * The delivery $1, locked; busy while one of its attempts holds a live lease at $2, while its
 * first attempt is due and not yet recorded, or when it is a manual one still to be made.
 */
export const LOCK_DELIVERY = `SELECT id, event_id, event_type, status IN ('pending', 'sending')
         AND (manual_id IS NOT NULL OR coalesce(locked_until > $2, false) OR (attempt_count = 0 AND next_attempt_at IS NOT NULL)) AS busy
       FROM webhook_deliveries WHERE id = $1 FOR UPDATE`;

/** A redelivery of delivery $1 waits or is being made. */
export const REDELIVERY_WAITS = `SELECT 1 FROM webhook_deliveries d WHERE d.id = $1 AND ${REDELIVERY_WAITING}`;

/** A redelivery: $1 its id, $2 tenant, $3 subscription, $4 event, $5 its type, $6 now, $7 the original. */
export const INSERT_REDELIVERY = `${INSERT_MANUAL} SELECT $1, $2, $3, $4, $5, 'pending', 0, $6, $6, $6, $1, $7, o.subject_id
       FROM webhook_deliveries o WHERE o.id = $7 AND o.event_id = $4`;

/** Through webhook_deliveries_recoverable_idx: its predicate is repeated here word for word. */
export const RECOVERABLE = `SELECT d.id FROM webhook_deliveries d
       WHERE d.subscription_id = $1 AND d.created_at >= $2
         AND d.manual_id IS NULL AND (d.status = 'failed' OR (d.status IN ('pending', 'sending') AND d.attempt_count > 0))
         AND d.tenant_id = $3 AND (d.locked_until IS NULL OR d.locked_until <= $4)
         AND NOT ${REDELIVERY_WAITING_OR_DONE}
         AND ($6::text[] IS NULL OR d.event_type = ANY($6::text[]))
       ORDER BY d.created_at, d.id LIMIT $5 FOR UPDATE OF d`;

/** Redeliveries of the locked deliveries $2 with ids $1, checked again under the lock. */
export const INSERT_RECOVERIES = `${INSERT_MANUAL}
       SELECT n.id, d.tenant_id, d.subscription_id, d.event_id, d.event_type, 'pending', 0, $3, $3, $3, n.id, d.id, d.subject_id
       FROM unnest($1::text[], $2::text[]) AS n(id, origin) JOIN webhook_deliveries d ON d.id = n.origin
       WHERE NOT ${REDELIVERY_WAITING_OR_DONE}
       RETURNING id`;

/** The test event in the log as relayed already ($5), and its only delivery written by the same statement. */
export const ADD_TEST = `WITH event AS (${outboxInsert(5, { relayed: true })} RETURNING id, type)
       ${INSERT_MANUAL} SELECT $1, $2, $3, event.id, event.type, 'pending', 0, $4, $4, $4, $1, NULL, NULL FROM event`;

/** The tenant $1's manual requests take turns from here to their commit. */
export const MANUAL_TURN = `SELECT pg_advisory_xact_lock(hashtextextended('manual-deliveries:' || $1, 0))`;

/** Through webhook_deliveries_manual_waiting_idx: its predicate is repeated here word for word. */
export const MANUAL_WAITING = `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries
         WHERE tenant_id = $1 AND manual_id IS NOT NULL AND status IN ('pending', 'sending') LIMIT $2) w`;
