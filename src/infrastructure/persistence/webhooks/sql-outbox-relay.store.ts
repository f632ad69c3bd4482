import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob, DirectFirstAttempt } from '../../../application/webhook/delivery/delivery-job';
import { decideAttempt } from '../../../domain/webhook/attempt-decision';
import { OutboxRelayStore } from '../../../application/webhook/delivery/outbox-relay-store.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { EventToDeliver, wantsEvent } from '../../../domain/webhook/webhook-subscription';
import { DeliveryFilter, EventSubjects, subjectsOf } from '../../../domain/webhook/delivery-filter';
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
        `SELECT ${DELIVERY_STATE_COLUMNS}, tenant_id, url, delivery_filter
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
      const deliveries: DeliveryJob[] = [];
      let chunk: NewDelivery[] = [];
      for (const { event, to } of events) {
        for (const s of to) {
          chunk.push({
            id: newTypeId('whdlv', now.getTime()),
            tenantId: event.tenant_id,
            subscriptionId: s.id,
            eventId: event.id,
            type: event.type,
            endpoint: endpointKey(event.tenant_id, s.url),
            ...firstAttempt(event, s, now),
          });
          if (chunk.length === INSERT_CHUNK) {
            deliveries.push(...(await insertDeliveries(em, chunk, now)));
            chunk = [];
          }
        }
      }
      if (chunk.length > 0) deliveries.push(...(await insertDeliveries(em, chunk, now)));
      // Last: from here to the commit, relays take turns (the feed's positions, event-feed.sql.ts).
      await sqlRows(em, PUBLISH_EVENTS_SQL, [now, events.map(({ event }) => event.id)]);
      return { events: events.length, deliveries, more: claimed.length === limit || events.length < claimed.length };
    });
  }

  async takeRequested(limit: number, now: Date): Promise<DeliveryJob[]> {
    // Through webhook_deliveries_requested_idx, empty but for requests of the last moments.
    // SKIP LOCKED: a request still being written (or taken by another relay) is left alone.
    const rows = await sqlRows<{ id: string; tenant_id: string; url: string }>(
      this.orm.em,
      `WITH requested AS (
         SELECT id FROM webhook_deliveries WHERE manual_id IS NOT NULL AND enqueued_at IS NULL AND status = 'pending'
         ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET enqueued_at = $1
       FROM requested, webhook_subscriptions s
       WHERE d.id = requested.id AND s.id = d.subscription_id
       RETURNING d.id, d.tenant_id, s.url`,
      [now, limit],
    );
    return rows.map((row) => ({ deliveryId: row.id, attempt: 1, delayMs: 0, tenantId: row.tenant_id, endpoint: endpointKey(row.tenant_id, row.url) }));
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

/** Inserts one chunk of deliveries (held ones with no time); returns the jobs of those made now (not made before), none for held ones. */
async function insertDeliveries(em: EntityManager, chunk: NewDelivery[], now: Date): Promise<DeliveryJob[]> {
  const rows = await sqlRows<{ id: string }>(
    em,
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
           SELECT id, tenant_id, subscription_id, event_id, event_type, 'pending', 0, CASE WHEN held THEN NULL ELSE $6::timestamptz END, $6, $6
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::bool[]) AS d(id, tenant_id, subscription_id, event_id, event_type, held)
           ON CONFLICT (event_id, subscription_id, manual_id) DO NOTHING RETURNING id`,
    [
      chunk.map((r) => r.id), chunk.map((r) => r.tenantId), chunk.map((r) => r.subscriptionId), chunk.map((r) => r.eventId), chunk.map((r) => r.type), now,
      chunk.map((r) => r.held === true),
    ],
  );
  const made = new Set(rows.map((row) => row.id));
  return chunk
    .filter((r) => made.has(r.id) && !r.held)
    .map((r) => ({ deliveryId: r.id, attempt: 1, delayMs: 0, tenantId: r.tenantId, endpoint: r.endpoint, ...(r.direct && { direct: r.direct }) }));
}
