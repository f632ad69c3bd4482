import { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryJob, DirectFirstAttempt } from '../../../application/webhook/delivery/delivery-job';
import { sqlRows } from '../connection/sql-statement';
import { publishParameters } from '../outbox/event-feed.sql';
import { INSERT_AND_PUBLISH_SQL, INSERT_SQL } from './relay-new-deliveries.sql';
import type { StoredColumns } from '../typed/statement';

// The insert of a relay round's deliveries, as the round's plan made them (SqlRelayRoundStore).

/** A delivery to insert, as the plan and what the round read make it. */
export interface NewDelivery {
  id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  type: string;
  endpoint: string;
  subject: string | null;
  direct?: DirectFirstAttempt;
  /** Made held with its subscription: no time, no job; the worker's wake-up moves it. */
  held: boolean;
  /** Made waiting for its page's turn (status 'waiting'): no time, no job. */
  waiting: boolean;
  order: { key: string; seq: number } | null;
}

/** A published event as the feed's publication takes it back (its created_at as PostgreSQL gave it). */
export type PublishedEvent = { id: string; tenant_id: string; type: string; created_at: string };

/**
 * Inserts one chunk of deliveries (held and waiting ones with no time); returns the jobs of those
 * made now (not made before), none for held or waiting ones. The rows go as one JSON parameter
 * (json-rows.ts). With `publishing` (the round's last chunk, which may be empty) the round's
 * events are published by the same statement (publishEventsWith): one round trip fewer a round.
 */
export async function insertDeliveries(em: EntityManager, chunk: NewDelivery[], now: Date, publishing?: readonly PublishedEvent[]): Promise<DeliveryJob[]> {
  const rows = JSON.stringify(
    chunk.map((r) => ({
      id: r.id, tenant_id: r.tenantId, subscription_id: r.subscriptionId, event_id: r.eventId, event_type: r.type,
      held: r.held, waiting: r.waiting, order_key: r.order?.key ?? null, order_seq: r.order?.seq ?? null, subject_id: r.subject,
    })),
  );
  const ids = publishing
    ? ((await sqlRows<{ made: string[] | null }>(em, INSERT_AND_PUBLISH_SQL, [...publishParameters(now, publishing), rows]))[0]?.made ?? [])
    : (await sqlRows<StoredColumns<'webhook_deliveries', 'id'>>(em, INSERT_SQL, [rows, now])).map((row) => row.id);
  const made = new Set(ids);
  return chunk
    .filter((r) => made.has(r.id) && !r.held && !r.waiting)
    .map((r) => ({ deliveryId: r.id, eventId: r.eventId, attempt: 1, delayMs: 0, tenantId: r.tenantId, endpoint: r.endpoint, ...(r.direct && { direct: r.direct }) }));
}
