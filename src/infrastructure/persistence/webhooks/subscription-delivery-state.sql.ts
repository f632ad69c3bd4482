import type { DeliveryState } from '../../../domain/webhook/attempt-decision';
import type { StoredColumns } from '../typed/statement';

// SQL text (decisions.md 184): the target version is a digest computed in the statement, and the
// relay's round embeds these columns in its own text (outbox-relay.sql.ts).

/**
 * A subscription's target version: a digest of exactly what a kept target holds (URL and
 * secrets), written once for the relay's read and the worker's. A content digest rather than a
 * timestamp or the row's xmin: nothing else written to the row (health, last success) moves it,
 * and no writer has to remember to.
 */
export const TARGET_VERSION_SQL = `md5(url || signing_secret_encrypted || previous_signing_secrets::text)`;

/** The columns of a subscription's delivery state, as the relay and the worker's fresh read select them. */
export const DELIVERY_STATE_COLUMNS = `id, active, events, ${TARGET_VERSION_SQL} AS version, consecutive_failures = 0 AND disabled_reason IS NULL AS healthy,
  rate_limit_per_second, send_not_before, disabled_reason, breaker_probe_at`;

/** The delivery states of the live subscriptions among ids $1 (the worker's fresh read). */
export const DELIVERY_STATES_OF = `SELECT ${DELIVERY_STATE_COLUMNS} FROM webhook_subscriptions WHERE id = ANY($1::text[]) AND deleted_at IS NULL`;

/** What sending to live subscription $1 needs, with its target version: the worker keeps targets by it. */
export const TARGET_OF = `SELECT ${TARGET_VERSION_SQL} AS version, url, signing_secret_encrypted AS secret, previous_signing_secrets AS previous
       FROM webhook_subscriptions WHERE id = $1 AND deleted_at IS NULL`;

/** A row of DELIVERY_STATE_COLUMNS: the subscription's columns as the entity types them, and the two computed. */
export type DeliveryStateRow = StoredColumns<
  'webhook_subscriptions',
  'id' | 'active' | 'events' | 'rate_limit_per_second' | 'send_not_before' | 'disabled_reason' | 'breaker_probe_at'
> & { version: string; healthy: boolean };

/**
 * The one mapping of a subscription's delivery-state columns to the domain's snapshot
 * (DeliveryState): the relay's read, the worker's fresh read and a claim all go through it.
 * `deleted` when the row read may be a deleted one (a claim); `slotAt` the rate slot a claimed
 * delivery holds.
 */
export function deliveryStateOf(
  row: Pick<DeliveryStateRow, 'active' | 'events' | 'rate_limit_per_second' | 'send_not_before' | 'disabled_reason' | 'breaker_probe_at'>,
  id: string,
  held: { deleted?: boolean; slotAt?: Date | string | null } = {},
): DeliveryState {
  const deleted = held.deleted ?? false;
  return {
    subscription: { id, active: row.active && !deleted, deleted, events: row.events, disabledReason: row.disabled_reason, nextProbeAt: dateOf(row.breaker_probe_at) },
    pace: { ratePerSecond: row.rate_limit_per_second, notBefore: dateOf(row.send_not_before), slotAt: dateOf(held.slotAt ?? null) },
  };
}

const dateOf = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));
