import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { ClaimedEvent, ClaimedRound, ReadSubscription, RelayRoundStore } from '../../../application/webhook/relay/relay-round-store.port';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import type { PageAsked, PageTurnRead, RoundPlan } from '../../../domain/webhook/relay-plan';
import { sqlRows } from '../connection/sql-statement';
import { eventIdCeiling } from '../history/history-tables';
import type { StoredColumns } from '../typed/statement';
import { LOCK_TURNS_SQL, TURN_STATES_SQL, UNRELAYED_EARLIER_SQL } from './delivery-turns.sql';
import { endpointKey } from './endpoint-key';
import { CLAIM_EVENTS_FROM_SQL, CLAIM_EVENTS_SQL, requestedWaiting, TAKE_REQUESTED } from './outbox-relay.sql';
import { insertDeliveries, NewDelivery } from './relay-new-deliveries';
import { DeliveryStateRow, deliveryStateOf } from './subscription-delivery-state.sql';

/** Each round's deliveries are inserted in chunks of this many rows. */
const INSERT_CHUNK = 500;

/** An event row the claim returns, its created_at as PostgreSQL's text; the subscriptions on the first row only. */
type ClaimRow = StoredColumns<'outbox_events', 'id' | 'tenant_id' | 'type' | 'body' | 'traceparent' | 'tracestate'> & {
  created_at: string;
  about: string | null;
  subscriptions: SubscriptionRow[] | null;
};
type SubscriptionRow = DeliveryStateRow & StoredColumns<'webhook_subscriptions', 'tenant_id' | 'url' | 'ordering'> & { delivery_filter: DeliveryFilter | null };

/**
 * The relay round's reads and writes, in the caller's transaction (PlannedOutboxRelay): committed
 * outbox events claimed by their queue rows with FOR UPDATE SKIP LOCKED (so any number of relays
 * can run), the pages' turns, and the planned deliveries inserted and the events published. The
 * unique key on (event_id, subscription_id, manual_id) keeps a scheduled delivery from being made
 * twice. Statements over array and JSON parameters (json-rows.ts): the same text whatever the batch.
 */
@Injectable()
export class SqlRelayRoundStore extends RelayRoundStore {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async claimEvents(limit: number, now: Date, from: string | null): Promise<ClaimedRound> {
    const ceiling = eventIdCeiling(now.getTime());
    const rows = await sqlRows<ClaimRow>(this.orm.em, from === null ? CLAIM_EVENTS_SQL : CLAIM_EVENTS_FROM_SQL, from === null ? [limit, ceiling] : [limit, ceiling, from]);
    return { events: rows.map(eventOf), subscriptions: (rows[0]?.subscriptions ?? []).map(subscriptionOf) };
  }

  async pageTurns(pages: readonly PageAsked[], round: readonly ClaimedEvent[], types: readonly string[]): Promise<{ turns: PageTurnRead[]; unrelayed: { tenantId: string; type: string; body: string }[] }> {
    const subscriptions = pages.map((p) => p.subscriptionId);
    const keys = pages.map((p) => p.orderKey);
    await sqlRows(this.orm.em, LOCK_TURNS_SQL, [subscriptions, keys]);
    const states = await sqlRows<StoredColumns<'webhook_deliveries', 'subscription_id'> & { order_key: string; taken: boolean; earliest_waiting: string | null }>(this.orm.em, TURN_STATES_SQL, [subscriptions, keys]);
    const turns = states.map((row) => ({ subscriptionId: row.subscription_id, orderKey: row.order_key, taken: row.taken, earliestAhead: row.earliest_waiting === null ? null : Number(row.earliest_waiting) }));
    // Events of the same pages that other relays hold right now are ahead of this round's.
    const ids = round.map((e) => e.id);
    const last = ids.reduce((max, id) => (id > max ? id : max), '');
    const tenants = [...new Set(pages.map((p) => p.tenantId))];
    const unrelayed = await sqlRows<StoredColumns<'outbox_events', 'tenant_id' | 'type' | 'body'>>(this.orm.em, UNRELAYED_EARLIER_SQL, [last, ids, tenants, types]);
    return { turns, unrelayed: unrelayed.map((row) => ({ tenantId: row.tenant_id, type: row.type, body: row.body })) };
  }

  async writeRound(plan: RoundPlan, read: ClaimedRound, now: Date): Promise<DeliveryJob[]> {
    const events = new Map(read.events.map((e) => [e.id, e]));
    const subscriptions = new Map(read.subscriptions.map((s) => [s.state.subscription.id, s]));
    const made: NewDelivery[] = plan.deliveries.map((d) => {
      const event = events.get(d.eventId)!;
      const s = subscriptions.get(d.subscriptionId)!;
      const direct =
        d.first === 'send'
          ? { readAt: now.getTime(), subscriptionId: d.subscriptionId, version: s.version, healthy: s.healthy, eventId: d.eventId, eventType: d.eventType, body: event.body, trace: event.trace, ...(d.order && { orderKey: d.order.key }) }
          : undefined;
      return {
        id: d.id, tenantId: d.tenantId, subscriptionId: d.subscriptionId, eventId: d.eventId, type: d.eventType, endpoint: endpointKey(d.tenantId, s.url), subject: d.subject,
        ...(direct && { direct }), held: d.first === 'held', waiting: d.first === 'wait', order: d.order,
      };
    });
    // The last chunk (empty when the round made none) goes with the publish, the round's last
    // statement: from there to the commit, relays take turns (the feed's positions, event-feed.sql.ts).
    const deliveries: DeliveryJob[] = [];
    const last = Math.max(0, Math.ceil(made.length / INSERT_CHUNK) - 1) * INSERT_CHUNK;
    for (let at = 0; at < last; at += INSERT_CHUNK) deliveries.push(...(await insertDeliveries(this.orm.em, made.slice(at, at + INSERT_CHUNK), now)));
    const published = plan.events.map((e) => ({ id: e.id, tenant_id: e.tenantId, type: e.type, created_at: events.get(e.id)!.createdAt }));
    deliveries.push(...(await insertDeliveries(this.orm.em, made.slice(last), now, published)));
    return deliveries;
  }

  async takeRequested(limit: number, now: Date): Promise<DeliveryJob[]> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive whole number');
    // Every relay round looks, and there is mostly nothing: the look names no parameter (the
    // limit is the relay's fixed batch), so a worker, which plans its statements per call, plans
    // it once per connection instead of over every day each round (10 ms with 47 days). Through
    // webhook_deliveries_requested_idx, empty but for requests of the last moments.
    const found = await sqlRows<StoredColumns<'webhook_deliveries', 'id' | 'event_id'>>(this.orm.em, requestedWaiting(limit));
    if (found.length === 0) return [];
    // Taken in their own days (event_id = ANY): a request another relay took meanwhile is
    // enqueued already and is left out (the row is read again once its lock is free).
    const rows = await sqlRows<StoredColumns<'webhook_deliveries', 'id' | 'event_id' | 'tenant_id'> & StoredColumns<'webhook_subscriptions', 'url'>>(
      this.orm.em,
      TAKE_REQUESTED,
      [now, found.map((r) => r.id), [...new Set(found.map((r) => r.event_id))]],
    );
    return rows.map((row) => ({ deliveryId: row.id, eventId: row.event_id, attempt: 1, delayMs: 0, tenantId: row.tenant_id, endpoint: endpointKey(row.tenant_id, row.url) }));
  }
}

function eventOf(row: ClaimRow): ClaimedEvent {
  const trace = row.traceparent ? { traceparent: row.traceparent, tracestate: row.tracestate } : null;
  return { id: row.id, tenantId: row.tenant_id, type: row.type, body: row.body, about: row.about, trace, createdAt: row.created_at };
}

function subscriptionOf(row: SubscriptionRow): ReadSubscription {
  return { tenantId: row.tenant_id, events: row.events, filter: row.delivery_filter, ordering: row.ordering, state: deliveryStateOf(row, row.id), url: row.url, version: row.version, healthy: row.healthy };
}
