import type { EventType } from '../../../domain/events/event-catalogue';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import type { DeliveryOrdering } from '../../../domain/webhook/delivery-ordering';
import type { DeliveryPace } from '../../../domain/webhook/delivery-pace';
import type { DisabledReason, EndpointHealth } from '../../../domain/webhook/endpoint-health';
import type { StoredPreviousSecret } from '../../crypto/decrypted-secrets';

// A webhook subscription's row as PostgreSQL stores it, and the mapping of its health columns,
// shared by its repository and the API's reads of subscriptions.

export interface SubscriptionRow {
  id: string;
  tenant_id: string;
  url: string;
  events: EventType[];
  active: boolean;
  signing_secret_encrypted: string;
  previous_signing_secrets: StoredPreviousSecret[];
  rate_limit_per_second: number | null;
  delivery_filter: DeliveryFilter | null;
  ordering: DeliveryOrdering;
  consecutive_failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  disable_at: string | null;
  disabled_reason: DisabledReason | null;
  breaker_probe_at: string | null;
  breaker_probes: number;
  health_failing_sent_at: string | null;
  health_recovery_owed: boolean;
  /** send_not_before in epoch ms, fractional (rate slots are finer than a millisecond). */
  send_not_before_ms: number | null;
  held_release_at: string | null;
  breaker_probe_delivery_id: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** The health columns of a subscription's row (the worker writes them; a PATCH may clear them). */
export type HealthColumns = Pick<SubscriptionRow, 'consecutive_failures' | 'last_success_at' | 'last_failure_at' | 'disable_at' | 'disabled_reason' | 'breaker_probe_at' | 'breaker_probes'>;

/** The columns of HealthColumns, for a SELECT. */
export const HEALTH_COLUMNS = 'consecutive_failures, last_success_at, last_failure_at, disable_at, disabled_reason, breaker_probe_at, breaker_probes';

export function healthOf(row: HealthColumns): EndpointHealth {
  const at = (value: string | Date | null) => (value === null ? null : new Date(value));
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

/** The pace columns of a subscription's row, for a SELECT (send_not_before in fractional epoch ms: rate slots are finer than a millisecond). */
export const PACE_COLUMNS = '(extract(epoch FROM send_not_before) * 1000)::float8 AS send_not_before_ms, held_release_at, breaker_probe_delivery_id';

export type PaceColumns = Pick<SubscriptionRow, 'send_not_before_ms' | 'held_release_at' | 'breaker_probe_delivery_id'>;

export function paceOf(row: PaceColumns): DeliveryPace {
  return { notBeforeMs: row.send_not_before_ms, nextReleaseAt: row.held_release_at === null ? null : new Date(row.held_release_at), lastProbeId: row.breaker_probe_delivery_id };
}
