import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob, DirectFirstAttempt } from '../../../application/webhook/delivery/delivery-job';
import { decideAttempt } from '../../../domain/webhook/attempt-decision';
import { OutboxRelayStore } from '../../../application/webhook/delivery/outbox-relay-store.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { EventToDeliver, wantsEvent } from '../../../domain/webhook/webhook-subscription';
import { DeliveryFilter, EventSubjects, subjectsOf } from '../../../domain/webhook/delivery-filter';
import { DeliveryOrdering, orderFor, OrderPosition, orderPositionOf } from '../../../domain/webhook/delivery-ordering';
import { decideTurns, OrderedDelivery } from './relay-turns';
import { endpointKey } from './endpoint-key';
import { sqlRows } from '../connection/sql-statement';
import { PUBLISH_EVENTS_SQL } from '../outbox/event-feed.sql';
import { DELIVERY_STATE_COLUMNS, DeliveryStateRow, deliveryStateOf } from './subscription-delivery-state.sql';

/**
 * Deliveries one relay round writes at most (the round's events are cut to fit, one event at
 * least): the relay's memory and transaction size depend on this, not on how many subscriptions
 * a tenant has. Each round's deliveries are inserted in chunks of INSERT_CHUNK rows.
 */
export const RELAY_ROUND_ROWS = 2000;
const INSERT_CHUNK = 500;

interface Subscription extends DeliveryStateRow {
  tenant_id: string;
  url: string;
  delivery_filter: DeliveryFilter | null;
  ordering: DeliveryOrdering;
}

interface ClaimedEvent {
  id: string;
  tenant_id: string;
  type: string;
  about: string | null;
  body: string;
  traceparent: string | null;
  tracestate: string | null;
}

/**
 * Claims committed outbox events with FOR UPDATE SKIP LOCKED (so any number of relays can run),
 * makes one delivery per matching active subscription, and marks the events published, all in
 * one transaction. The unique key on (event_id, subscription_id, manual_id) keeps a scheduled
 * delivery from being made twice.
 * Statements over array parameters: the same text whatever the batch.
 */
@Injectable()
export class SqlOutboxRelayStore extends OutboxRelayStore {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async fanOut(limit: number, now: Date): Promise<{ events: number; deliveries: DeliveryJob[]; more: boolean }> {
    return this.orm.em.fork().transactional(async (em) => {
      // A health event names the subscription it is about, which never receives it (wantsEvent);
      // only those bodies are parsed.
      const claimed = await sqlRows<ClaimedEvent>(
        em,
        `SELECT id, tenant_id, type, CASE WHEN type LIKE 'webhook\\_subscription.%' THEN body::json->'data'->>'id' END AS about, body, traceparent, tracestate
         FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (claimed.length === 0) return { events: 0, deliveries: [], more: false };
      const subscriptions = await sqlRows<Subscription>(
        em,
        `SELECT ${DELIVERY_STATE_COLUMNS}, tenant_id, url, delivery_filter, ordering
         FROM webhook_subscriptions WHERE tenant_id = ANY($1::text[]) AND active AND deleted_at IS NULL`,
        [[...new Set(claimed.map((e) => e.tenant_id))]],
      );
      // The live ones were read: the rule itself is the domain's. What an event is about is read
      // from its body only for a subscription with a filter (most have none: no parse).
      const subjects = new Map<string, EventSubjects>();
      const aboutOf = (event: ClaimedEvent): EventToDeliver => {
        let found = subjects.get(event.id);
        if (!found) subjects.set(event.id, (found = subjectsOf(event.body)));
        return { ...event, subjects: found };
      };
      const matching = (event: ClaimedEvent) =>
        subscriptions.filter(
          (s) =>
            s.tenant_id === event.tenant_id &&
            wantsEvent({ id: s.id, active: true, deleted: false, events: s.events, filter: s.delivery_filter }, s.delivery_filter ? aboutOf(event) : event),
        );
      // The events this round takes: as many as fit RELAY_ROUND_ROWS deliveries (one at least).
      // The others stay unpublished, and their row locks go with this transaction's end.
      const events: { event: ClaimedEvent; to: Subscription[] }[] = [];
      let rows = 0;
      for (const event of claimed) {
        const to = matching(event);
        if (events.length > 0 && rows + to.length > RELAY_ROUND_ROWS) break;
        events.push({ event, to });
        rows += to.length;
      }
      // Where each event stands in its page's order, read only for subscriptions that order.
      const positions = new Map<string, OrderPosition | null>();
      const positionOf = (event: ClaimedEvent) => {
        if (!positions.has(event.id)) positions.set(event.id, orderPositionOf(event.type, event.body));
        return positions.get(event.id) ?? null;
      };
      const made: NewDelivery[] = [];
      for (const { event, to } of events) {
        for (const s of to) {
          const order = orderFor(s.ordering, () => positionOf(event));
          made.push({
            id: newTypeId('whdlv', now.getTime()),
            tenantId: event.tenant_id,
            subscriptionId: s.id,
            eventId: event.id,
            type: event.type,
            endpoint: endpointKey(event.tenant_id, s.url),
            ...(order && { order }),
            ...firstAttempt(event, s, now),
          });
        }
      }
      await waitTurns(em, made, claimed.map((event) => event.id));
      const deliveries: DeliveryJob[] = [];
      for (let at = 0; at < made.length; at += INSERT_CHUNK) deliveries.push(...(await insertDeliveries(em, made.slice(at, at + INSERT_CHUNK), now)));
      // Last: from here to the commit, relays take turns (the feed's positions, event-feed.sql.ts).
      await sqlRows(em, PUBLISH_EVENTS_SQL, [now, events.map(({ event }) => event.id)]);
      return { events: events.length, deliveries, more: claimed.length === limit || events.length < claimed.length };
    });
  }

  async takeRequested(limit: number, now: Date): Promise<DeliveryJob[]> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive whole number');
    // Every relay round looks, and there is mostly nothing: the look names no parameter (the
    // limit is the relay's fixed batch), so a worker, which plans its statements per call, plans
    // it once per connection instead of over every day each round (10 ms with 47 days). Through
    // webhook_deliveries_requested_idx, empty but for requests of the last moments.
    const found = await sqlRows<{ id: string; event_id: string }>(
      this.orm.em,
      `SELECT id, event_id FROM webhook_deliveries WHERE manual_id IS NOT NULL AND enqueued_at IS NULL AND status = 'pending' ORDER BY id LIMIT ${limit}`,
    );
    if (found.length === 0) return [];
    // Taken in their own days (event_id = ANY): a request another relay took meanwhile is
    // enqueued already and is left out (the row is read again once its lock is free).
    const rows = await sqlRows<{ id: string; event_id: string; tenant_id: string; url: string }>(
      this.orm.em,
      `UPDATE webhook_deliveries d SET enqueued_at = $1
       FROM webhook_subscriptions s
       WHERE d.event_id = ANY($3::text[]) AND d.id = ANY($2::text[]) AND d.manual_id IS NOT NULL AND d.enqueued_at IS NULL AND d.status = 'pending' AND s.id = d.subscription_id
       RETURNING d.id, d.event_id, d.tenant_id, s.url`,
      [now, found.map((r) => r.id), [...new Set(found.map((r) => r.event_id))]],
    );
    return rows.map((row) => ({ deliveryId: row.id, eventId: row.event_id, attempt: 1, delayMs: 0, tenantId: row.tenant_id, endpoint: endpointKey(row.tenant_id, row.url) }));
  }
}

interface NewDelivery {
  id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  type: string;
  endpoint: string;
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
async function waitTurns(em: EntityManager, made: NewDelivery[], round: string[]): Promise<void> {
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
function firstAttempt(event: ClaimedEvent, s: Subscription, now: Date): Pick<NewDelivery, 'direct' | 'held'> {
  const { subscription, pace } = deliveryStateOf(s);
  const step = decideAttempt({ eventType: event.type, manual: false, probe: false, subscription, pace }, now);
  if (step.kind === 'hold') return { held: true };
  if (step.kind !== 'send') return {};
  const trace = event.traceparent ? { traceparent: event.traceparent, tracestate: event.tracestate } : null;
  return { direct: { readAt: now.getTime(), subscriptionId: s.id, version: s.version, healthy: s.healthy, eventId: event.id, eventType: event.type, body: event.body, trace } };
}

/** Inserts one chunk of deliveries (held and waiting ones with no time); returns the jobs of those made now (not made before), none for held or waiting ones. */
async function insertDeliveries(em: EntityManager, chunk: NewDelivery[], now: Date): Promise<DeliveryJob[]> {
  const rows = await sqlRows<{ id: string }>(
    em,
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, order_key, order_seq)
           SELECT id, tenant_id, subscription_id, event_id, event_type, CASE WHEN waiting THEN 'waiting' ELSE 'pending' END, 0,
                  CASE WHEN held OR waiting THEN NULL ELSE $6::timestamptz END, $6, $6, order_key, order_seq
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::bool[], $8::bool[], $9::text[], $10::bigint[])
             AS d(id, tenant_id, subscription_id, event_id, event_type, held, waiting, order_key, order_seq)
           ON CONFLICT (event_id, subscription_id, manual_id) DO NOTHING RETURNING id`,
    [
      chunk.map((r) => r.id), chunk.map((r) => r.tenantId), chunk.map((r) => r.subscriptionId), chunk.map((r) => r.eventId), chunk.map((r) => r.type), now,
      chunk.map((r) => r.held === true), chunk.map((r) => r.waiting === true), chunk.map((r) => r.order?.key ?? null), chunk.map((r) => r.order?.seq ?? null),
    ],
  );
  const made = new Set(rows.map((row) => row.id));
  return chunk
    .filter((r) => made.has(r.id) && !r.held && !r.waiting)
    .map((r) => ({ deliveryId: r.id, eventId: r.eventId, attempt: 1, delayMs: 0, tenantId: r.tenantId, endpoint: r.endpoint, ...(r.direct && { direct: r.direct }) }));
}
