import type { SubscriptionNow } from '../../../application/webhook/delivery/subscription-targets.port';
import type { DisabledReason } from '../../../domain/webhook/endpoint-health';

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

export interface DeliveryStateRow {
  id: string;
  active: boolean;
  events: string[];
  version: string;
  healthy: boolean;
  rate_limit_per_second: number | null;
  send_not_before: Date | null;
  disabled_reason: DisabledReason | null;
  breaker_probe_at: Date | null;
}

/** The one mapping of those columns to what deciding an attempt reads (a row selected is not deleted). */
export function deliveryStateOf(row: DeliveryStateRow): SubscriptionNow {
  return {
    subscription: { id: row.id, active: row.active, deleted: false, events: row.events, disabledReason: row.disabled_reason, nextProbeAt: row.breaker_probe_at && new Date(row.breaker_probe_at) },
    pace: { ratePerSecond: row.rate_limit_per_second, notBefore: row.send_not_before && new Date(row.send_not_before), slotAt: null },
    healthy: row.healthy,
    version: row.version,
  };
}
