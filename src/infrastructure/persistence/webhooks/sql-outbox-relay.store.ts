import { deliverySubjectOf } from '../../../domain/webhook/delivery-subject';
import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { OutboxRelayStore } from '../../../application/webhook/relay/outbox-relay-store.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { EventToDeliver, wantsEvent } from '../../../domain/webhook/webhook-subscription';
import { EventSubjects, subjectsOf } from '../../../domain/webhook/delivery-filter';
import { orderFor, OrderPosition, orderPositionOf } from '../../../domain/webhook/delivery-ordering';
import { ClaimedEvent, firstAttempt, insertDeliveries, NewDelivery, Subscription, waitTurns } from './relay-new-deliveries';
import { endpointKey } from './endpoint-key';
import { sqlRows } from '../connection/sql-statement';
import type { StoredColumns } from '../typed/statement';
import { CLAIM_EVENTS_FROM_SQL, CLAIM_EVENTS_SQL, requestedWaiting, TAKE_REQUESTED } from './outbox-relay.sql';
import { eventIdCeiling } from '../history/history-tables';

/**
 * Deliveries one relay round writes at most (the round's events are cut to fit, one event at
 * least): the relay's memory and transaction size depend on this, not on how many subscriptions
 * a tenant has. Each round's deliveries are inserted in chunks of INSERT_CHUNK rows.
 */
export const RELAY_ROUND_ROWS = 2000;
const INSERT_CHUNK = 500;

/**
 * Claims committed outbox events by their queue rows with FOR UPDATE SKIP LOCKED (so any number
 * of relays can run), makes one delivery per matching active subscription, and publishes the
 * events, all in one transaction. The unique key on (event_id, subscription_id, manual_id) keeps
 * a scheduled delivery from being made twice.
 * Statements over array and JSON parameters (json-rows.ts): the same text whatever the batch.
 */
@Injectable()
export class SqlOutboxRelayStore extends OutboxRelayStore {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async fanOut(limit: number, now: Date, from: string | null = null): Promise<{ events: number; deliveries: DeliveryJob[]; more: boolean; through?: string }> {
    return this.orm.em.fork().transactional(async (em) => {
      const ceiling = eventIdCeiling(now.getTime());
      const claimed = await sqlRows<ClaimedEvent & { subscriptions: Subscription[] | null }>(em, from === null ? CLAIM_EVENTS_SQL : CLAIM_EVENTS_FROM_SQL, from === null ? [limit, ceiling] : [limit, ceiling, from]);
      if (claimed.length === 0) return { events: 0, deliveries: [], more: false };
      const subscriptions = claimed[0].subscriptions ?? [];
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
        const subject = to.length > 0 ? deliverySubjectOf(event.type, event.body) : null;
        for (const s of to) {
          const order = orderFor(s.ordering, () => positionOf(event));
          made.push({
            id: newTypeId('whdlv', now.getTime()),
            tenantId: event.tenant_id,
            subscriptionId: s.id,
            eventId: event.id,
            type: event.type,
            endpoint: endpointKey(event.tenant_id, s.url),
            subject,
            ...(order && { order }),
            ...firstAttempt(event, s, now),
          });
        }
      }
      await waitTurns(em, made, claimed.map((event) => event.id));
      // The last chunk (empty when the round made none) goes with the publish, the round's last
      // statement: from there to the commit, relays take turns (the feed's positions, event-feed.sql.ts).
      const deliveries: DeliveryJob[] = [];
      const last = Math.max(0, Math.ceil(made.length / INSERT_CHUNK) - 1) * INSERT_CHUNK; // where the last chunk starts
      for (let at = 0; at < last; at += INSERT_CHUNK) deliveries.push(...(await insertDeliveries(em, made.slice(at, at + INSERT_CHUNK), now)));
      deliveries.push(...(await insertDeliveries(em, made.slice(last), now, events.map(({ event }) => event))));
      return { events: events.length, deliveries, more: claimed.length === limit || events.length < claimed.length, through: events.at(-1)?.event.id };
    });
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
