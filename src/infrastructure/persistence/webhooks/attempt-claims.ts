import { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryClaim } from '../../../application/webhook/attempt/delivery-claim';
import { DecryptedSecrets } from '../../crypto/decrypted-secrets';
import { sqlQuery } from '../connection/sql-statement';
import { CLAIM_ATTEMPTS_SQL, ClaimRequest, ClaimRow } from './delivery-attempts.sql';
import { endpointKey } from './endpoint-key';
import { deliveryStateOf } from './subscription-delivery-state.sql';

/** Delivery id order: groups lock their delivery rows in one order (no deadlock between two in flight). */
export const byDeliveryId = (a: { deliveryId: string }, b: { deliveryId: string }) => (a.deliveryId < b.deliveryId ? -1 : a.deliveryId > b.deliveryId ? 1 : 0);

/**
 * Takes a group of attempts in one statement (CLAIM_ATTEMPTS_SQL) and reads what sending each
 * needs: the row of each request taken, in the requests' order, or null. On the pool, a prepared
 * statement: parsed and planned once per connection. Two requests for the same attempt (a
 * duplicate job): the row goes to the first, the other finds nothing to take, as it would after it.
 */
export async function claimAttempts(em: EntityManager, items: readonly ClaimRequest[]): Promise<(ClaimRow | null)[]> {
  const sorted = [...items].sort(byDeliveryId);
  const { rows } = await sqlQuery<ClaimRow>(em, CLAIM_ATTEMPTS_SQL, [
    sorted.map((c) => c.deliveryId),
    sorted.map((c) => c.attempt - 1),
    sorted.map((c) => c.now),
    sorted.map((c) => c.lockedUntil),
    sorted.map((c) => c.eventId),
  ]);
  const taken = new Map(rows.map((row) => [`${row.id} ${row.attempt_count + 1}`, row]));
  return items.map((item) => {
    const key = `${item.deliveryId} ${item.attempt}`;
    const row = taken.get(key) ?? null;
    taken.delete(key);
    return row;
  });
}

/** The attempt a claimed row stands for, its secrets decrypted. */
export function claimOf(row: ClaimRow, attempt: number, secrets: DecryptedSecrets): DeliveryClaim {
  const { subscription, pace } = deliveryStateOf(row, row.subscription_id, { deleted: row.deleted, slotAt: row.paced_slot_at });
  return {
    deliveryId: row.id,
    attempt,
    tenantId: row.tenant_id,
    eventId: row.event_id,
    eventType: row.event_type,
    body: row.body,
    trace: row.traceparent ? { traceparent: row.traceparent, tracestate: row.tracestate } : null,
    subscription: {
      ...subscription,
      events: row.events,
      url: row.url,
      healthy: row.healthy,
      signingSecret: secrets.secret(row.secret),
      previousSecrets: secrets.previous(row.previous_secrets),
    },
    manual: row.manual ? { redeliveryOf: row.redelivery_of } : null,
    probe: row.probe,
    orderKey: row.order_key,
    endpoint: endpointKey(row.tenant_id, row.url),
    pace,
  };
}
