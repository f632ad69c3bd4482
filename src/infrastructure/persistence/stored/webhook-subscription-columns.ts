import { sql } from 'kysely';
import type { DeliveryPace } from '../../../domain/webhook/delivery-pace';
import type { EndpointHealth } from '../../../domain/webhook/endpoint-health';
import type { StoredColumns } from '../typed/statement';

// A webhook subscription's health and pace columns and their mapping, shared by its repository,
// the API's reads of subscriptions and the worker's held deliveries. Row types come from the entity.

/** The health columns (the worker writes them; a PATCH may clear them). */
export const HEALTH_COLUMNS = [
  'consecutive_failures', 'last_success_at', 'last_failure_at', 'disable_at', 'disabled_reason', 'breaker_probe_at', 'breaker_probes',
] as const;

export type HealthColumns = StoredColumns<'webhook_subscriptions', (typeof HEALTH_COLUMNS)[number]>;

export function healthOf(row: HealthColumns): EndpointHealth {
  const at = (value: string | null) => (value === null ? null : new Date(value));
  return {
    consecutiveFailures: row.consecutive_failures,
    lastSuccessAt: at(row.last_success_at),
    lastFailureAt: at(row.last_failure_at),
    disableAt: at(row.disable_at),
    disabledReason: row.disabled_reason,
    nextProbeAt: at(row.breaker_probe_at),
    probesMade: row.breaker_probes,
  };
}

/** send_not_before in fractional epoch ms: rate slots are finer than a millisecond. */
const SEND_NOT_BEFORE_MS = '(extract(epoch FROM send_not_before) * 1000)::float8';

/** The pace columns, for a typed statement's select. */
export const paceColumns = () => [sql<number | null>`${sql.raw(SEND_NOT_BEFORE_MS)}`.as('send_not_before_ms'), 'held_release_at', 'breaker_probe_delivery_id'] as const;

/** The pace columns, for a statement of SQL text. */
export const PACE_COLUMNS_TEXT = `${SEND_NOT_BEFORE_MS} AS send_not_before_ms, held_release_at, breaker_probe_delivery_id`;

export type PaceColumns = StoredColumns<'webhook_subscriptions', 'held_release_at' | 'breaker_probe_delivery_id'> & { send_not_before_ms: number | null };

export function paceOf(row: PaceColumns): DeliveryPace {
  return { notBeforeMs: row.send_not_before_ms, nextReleaseAt: row.held_release_at === null ? null : new Date(row.held_release_at), lastProbeId: row.breaker_probe_delivery_id };
}
