import { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryJob, DirectFirstAttempt } from '../../../application/webhook/delivery/delivery-job';
import { decideAttempt } from '../../../domain/webhook/attempt-decision';
import { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import { DeliveryOrdering, OrderPosition } from '../../../domain/webhook/delivery-ordering';
import { decideTurns, OrderedDelivery } from './relay-turns';
import { sqlRows } from '../connection/sql-statement';
import { publishParameters } from '../outbox/event-feed.sql';
import { INSERT_AND_PUBLISH_SQL, INSERT_SQL } from './relay-new-deliveries.sql';
import { DeliveryStateRow, deliveryStateOf } from './subscription-delivery-state.sql';
import type { StoredColumns } from '../typed/statement';

// The deliveries a relay round makes (SqlOutboxRelayStore): what each is, its first attempt as
// the relay decides it, the page turns of ordered ones, and their insert.

/** A subscription an event may go to: its delivery state and what matching and ordering read. */
export type Subscription = DeliveryStateRow &
  StoredColumns<'webhook_subscriptions', 'tenant_id' | 'url' | 'ordering'> & { delivery_filter: DeliveryFilter | null };

/**
 * An event a round claimed, its created_at as PostgreSQL's text (publishParameters passes it
 * back as it is), and `about`: the subscription a subscription's own event concerns.
 */
export type ClaimedEvent = StoredColumns<'outbox_events', 'id' | 'tenant_id' | 'type' | 'created_at' | 'body' | 'traceparent' | 'tracestate'> & { about: string | null };

export interface NewDelivery {
  id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  type: string;
  endpoint: string;
  /** What the event is about (deliverySubjectOf), for the delivery search. */
  subject: string | null;
  direct?: DirectFirstAttempt;
  /** Made held with its subscription (open breaker, Retry-After): no job; the worker's wake-up moves it. */
  held?: true;
  /** Its place in its page's order, for a subscription that orders. */
  order?: OrderPosition;
  /** Made waiting for its page's turn (status 'waiting'): no job; the delivery before it passes the turn on. */
  waiting?: true;
}

/**
 * The round's ordered deliveries that do not take their page's turn are made waiting (relay-turns.ts):
 * no job, no first attempt ready. One that takes it keeps its first attempt, with the page it holds.
 */
export async function waitTurns(em: EntityManager, made: NewDelivery[], round: string[]): Promise<void> {
  const ordered = new Map<OrderedDelivery, NewDelivery>();
  for (const d of made) {
    if (d.order) ordered.set({ tenantId: d.tenantId, subscriptionId: d.subscriptionId, eventId: d.eventId, orderKey: d.order.key, orderSeq: d.order.seq }, d);
  }
  if (ordered.size === 0) return;
  const takers = await decideTurns(em, [...ordered.keys()], round);
  for (const [turn, d] of ordered) {
    if (takers.has(turn)) {
      if (d.direct) d.direct = { ...d.direct, orderKey: turn.orderKey };
      continue;
    }
    d.waiting = true;
    delete d.direct;
    delete d.held;
  }
}

/**
 * The first attempt as what the relay read decides it (the domain's decideAttempt, as a claim
 * would): made ready to send when it is to be sent at once (no rate slot to take, no breaker open,
 * no Retry-After hold); made held when its subscription holds it, so that it is never claimed only
 * to be parked (a held delivery is claimed at most twice: the probe, or its release); otherwise
 * claimed and decided when its job runs.
 */
export function firstAttempt(event: ClaimedEvent, s: Subscription, now: Date): Pick<NewDelivery, 'direct' | 'held'> {
  const { subscription, pace } = deliveryStateOf(s);
  const step = decideAttempt({ eventType: event.type, manual: false, probe: false, subscription, pace }, now);
  if (step.kind === 'hold') return { held: true };
  if (step.kind !== 'send') return {};
  const trace = event.traceparent ? { traceparent: event.traceparent, tracestate: event.tracestate } : null;
  return { direct: { readAt: now.getTime(), subscriptionId: s.id, version: s.version, healthy: s.healthy, eventId: event.id, eventType: event.type, body: event.body, trace } };
}

/**
 * Inserts one chunk of deliveries (held and waiting ones with no time); returns the jobs of those
 * made now (not made before), none for held or waiting ones. The rows go as one JSON parameter
 * (json-rows.ts). With `publishing` (the round's last chunk, which may be empty) the round's
 * events are published by the same statement (publishEventsWith): one round trip fewer a round.
 */
export async function insertDeliveries(em: EntityManager, chunk: NewDelivery[], now: Date, publishing?: readonly ClaimedEvent[]): Promise<DeliveryJob[]> {
  const rows = JSON.stringify(
    chunk.map((r) => ({
      id: r.id, tenant_id: r.tenantId, subscription_id: r.subscriptionId, event_id: r.eventId, event_type: r.type,
      held: r.held === true, waiting: r.waiting === true, order_key: r.order?.key ?? null, order_seq: r.order?.seq ?? null, subject_id: r.subject,
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
