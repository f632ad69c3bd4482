import type { StoredColumns } from '../typed/statement';
import type { StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import { epochMs, fromEpochMs } from '../connection/json-rows';
import { numberField, rowsLiteral, textField } from '../connection/record-literals';
import { ATTEMPTS, dayPartition, DELIVERIES } from '../history/history-tables';

// SQL text, not typed statements (decisions.md 184): each statement takes or records a whole group
// of attempts from one JSON parameter (json-rows.ts) across the days' partitions, updating the
// delivery and inserting its log row in one statement.


// The two statements of an attempt (claims and records): texts fixed here, each run by its
// GroupWriter for a group of attempts at once (SqlDeliveryClaims). Their plans are checked in
// test/integration/delivery-plans.test.ts, the record's kept plan in record-session.test.ts.

/** One attempt's record: its log row and the delivery's next state. */
export interface AttemptRecord {
  id: string;
  tenantId: string;
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
  trigger: 'scheduled' | 'manual';
  redeliveryOf: string | null;
  at: Date;
  status: string;
  finishedAt: Date | null;
  sentAt: Date | null;
  responseExcerpt: string | null;
}

/** One job's request to take its attempt of a delivery. */
export interface ClaimRequest {
  deliveryId: string;
  eventId: string;
  attempt: number;
  now: Date;
  lockedUntil: Date;
}

/** A taken attempt and what sending it needs. */
export type ClaimRow = StoredColumns<'webhook_deliveries', 'id' | 'attempt_count' | 'tenant_id' | 'subscription_id' | 'event_id' | 'event_type' | 'redelivery_of' | 'paced_slot_at' | 'order_key'> &
  StoredColumns<'webhook_subscriptions', 'url' | 'active' | 'events' | 'rate_limit_per_second' | 'send_not_before' | 'disabled_reason' | 'breaker_probe_at'> &
  StoredColumns<'outbox_events', 'body' | 'traceparent' | 'tracestate'> & {
    /** Computed by the statement: */
    deleted: boolean;
    secret: string;
    previous_secrets: StoredPreviousSecret[];
    manual: boolean;
    healthy: boolean;
    probe: boolean;
  };

/**
 * Takes a group of attempts and reads what sending each needs, in one statement.
 *
 * The lease is `locked_until` alone: the status stays 'pending' ('sending' was set by
 * earlier versions and is still taken over when its lease has run out). No indexed column
 * changes, so PostgreSQL updates the row in place on its page (a HOT update, Migration
 * ...20261123010000 leaves room for it) instead of adding an entry to each of its three
 * indexes. The claim commits without waiting for the disk (synchronous_commit off for this statement's
 * own transaction only): it is a lease, not a fact. Lost in a crash of PostgreSQL, the
 * delivery is simply pending again and is sent by the next job or the sweeper, as after a
 * killed worker (decisions.md 28 and 55). Since decisions.md 130 the record commits so too. This halved
 * the disk flushes a delivery waits for; the drain was waiting on them (IO:WALSync,
 * LWLock:WALWrite in pg_stat_activity).
 *
 * `event_id = ANY($5)` repeats the join for the planner: the worker plans each call with its
 * values (PlanKeeping, mikro-orm.config.ts), and with the events' ids in hand PostgreSQL plans and
 * locks only their days, mostly one, instead of all of them.
 *
 * A held delivery (no next attempt time: parked with its subscription, SqlHeldDeliveries) is not
 * taken: a job left for it finds nothing, and only the worker's wake-up moves it.
 *
 * The plan must stay on the primary key however stale the statistics. With `status IN
 * ('pending', 'sending')` the planner could use the unfinished-deliveries partial index,
 * which the statistics call tiny when a backlog has just arrived: it read every pending row
 * to hash them, a cost that grows with the backlog (docs/performance-analysis.md). The same condition written as the
 * terminal states left out (equal under the table's CHECK) does not match that index's
 * predicate, and `d.id = ANY($1)` gives the planner the primary-key lookups.
 */
export const CLAIM_ATTEMPTS_SQL = `WITH lease AS (SELECT set_config('synchronous_commit', 'off', true)),
       r AS (SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::text[]) AS r(id, attempt_count, now, locked_until, event_id)),
       claimed AS (
         UPDATE webhook_deliveries d SET status = 'pending', locked_until = r.locked_until, updated_at = r.now
         FROM r
         WHERE d.event_id = ANY($5::text[]) AND d.id = r.id AND d.event_id = r.event_id AND d.attempt_count = r.attempt_count AND d.status NOT IN ('delivered', 'failed', 'cancelled') AND d.next_attempt_at IS NOT NULL AND (d.locked_until IS NULL OR d.locked_until < r.now)
         RETURNING d.id, d.attempt_count, d.tenant_id, d.subscription_id, d.event_id, d.event_type, d.manual_id IS NOT NULL AS manual, d.redelivery_of, d.paced_slot_at, d.order_key)
       SELECT c.id, c.attempt_count, c.tenant_id, c.subscription_id, c.event_id, c.event_type, c.manual, c.redelivery_of, s.url, s.active,
              s.deleted_at IS NOT NULL AS deleted, s.events, s.signing_secret_encrypted AS secret, s.previous_signing_secrets AS previous_secrets, o.body, o.traceparent, o.tracestate,
              s.rate_limit_per_second, s.send_not_before, c.paced_slot_at, s.consecutive_failures = 0 AND s.disabled_reason IS NULL AS healthy,
              s.disabled_reason, s.breaker_probe_at, (c.id = s.breaker_probe_delivery_id) IS TRUE AS probe, c.order_key
       FROM claimed c CROSS JOIN lease JOIN webhook_subscriptions s ON s.id = c.subscription_id JOIN outbox_events o ON o.id = c.event_id AND o.id = ANY($5::text[])`;

/**
 * Writes a group of attempts: each one's log row (once per attempt number) and its delivery's next
 * state, only if the delivery is still at the attempt before and unfinished (a first attempt sent
 * without a claim holds no lease: one a claim ended meanwhile stays ended). $1 is the rows, an
 * array of webhook_attempt_record (record-literals.ts, recordRows). It commits without waiting for the disk, as the claim does
 * (decisions.md 130): lost in a crash of PostgreSQL, a record leaves its delivery pending, and the
 * delivery is sent again (at least once, never lost); a connection cut still fails the statement
 * before anything is taken as written. `days` narrows a statement over the partitioned tables.
 */
const recordSql = (deliveries: string, attempts: string, days: string) => `WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true)),
       r AS (
         SELECT id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error,
                ${fromEpochMs('next_attempt_at')} AS next_attempt_at, ${fromEpochMs('created_at')} AS created_at, status,
                ${fromEpochMs('finished_at')} AS finished_at, trigger, redelivery_of, ${fromEpochMs('sent_at')} AS sent_at, response_excerpt
         FROM unnest($1::webhook_attempt_record[])),
       logged AS (
         INSERT INTO ${attempts} (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at,
                                                created_at, trigger, redelivery_of, sent_at, response_excerpt)
         SELECT id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at, created_at,
                trigger, redelivery_of, sent_at, response_excerpt FROM r
         ON CONFLICT (delivery_id, attempt_number, event_id) DO NOTHING)
       UPDATE ${deliveries} d SET status = r.status, attempt_count = r.attempt_number, next_attempt_at = r.next_attempt_at, locked_until = NULL, paced_slot_at = NULL,
         last_status_code = r.status_code, updated_at = r.created_at, finished_at = r.finished_at
       FROM r CROSS JOIN unflushed WHERE ${days}d.id = r.delivery_id AND d.event_id = r.event_id AND d.attempt_count = r.attempt_number - 1 AND d.status NOT IN ('delivered', 'failed', 'cancelled')`;

/**
 * The record through the partitioned tables, for a session that plans each call (the worker's
 * pool): `event_id = ANY($2)`, the events' ids, has it planned for their days only (see the claim).
 */
export const RECORD_ATTEMPTS_SQL = recordSql('webhook_deliveries', 'webhook_delivery_attempts', 'd.event_id = ANY($2::text[]) AND ');

/**
 * The record aimed at one day's own tables (named by dayPartition), its only parameter the rows:
 * for a session that keeps its plans (RecordSession, decisions.md 157). With no partition to prune
 * and each delivery found only by equality with its row's key, every plan left to that session's
 * planner (no sequential scan, hash or merge join, no materialising) looks each delivery up by a
 * unique key, whatever the statistics said when the plan was made.
 */
export function recordDaySql(dayMs: number): string {
  return recordSql(dayPartition(DELIVERIES, dayMs), dayPartition(ATTEMPTS, dayMs), '');
}

/** RECORD_ATTEMPTS_SQL's parameters for a group of records, in the order given. */
export function recordParameters(records: readonly AttemptRecord[]): [string, string[]] {
  return [recordRows(records), records.map((r) => r.eventId)];
}

/** The record's rows ($1 of either text), in the order given, in webhook_attempt_record's field order. */
export function recordRows(records: readonly AttemptRecord[]): string {
  return rowsLiteral(
    records.map(
      (r) =>
        `${textField(r.id)},${textField(r.tenantId)},${textField(r.deliveryId)},${textField(r.subscriptionId)},${textField(r.eventId)},${textField(r.eventType)},` +
        `${numberField(r.attempt)},${numberField(r.statusCode)},${numberField(r.durationMs)},${textField(r.error)},${numberField(epochMs(r.nextAttemptAt))},` +
        `${numberField(r.at.getTime())},${textField(r.status)},${numberField(epochMs(r.finishedAt))},${textField(r.trigger)},${textField(r.redeliveryOf)},` +
        `${numberField(epochMs(r.sentAt))},${textField(r.responseExcerpt)}`,
    ),
  );
}
