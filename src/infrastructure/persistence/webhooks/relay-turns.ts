import { EntityManager } from '@mikro-orm/postgresql';
import { ORDERED_EVENT_TYPES, orderPositionOf, PageTurn, turnTaker } from '../../../domain/webhook/delivery-ordering';
import { sqlRows } from '../connection/sql-statement';
import { LOCK_TURNS_SQL, TURN_STATES_SQL, UNRELAYED_EARLIER_SQL } from './delivery-turns.sql';
import type { StoredColumns } from '../typed/statement';

/** A delivery a relay round is making for a subscription that orders, of an event with a place in its page's order. */
export interface OrderedDelivery {
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  orderKey: string;
  orderSeq: number;
}

/**
 * Which of a relay round's ordered deliveries take their page's turn (the domain's turnTaker);
 * the others are made waiting. Runs in the round's transaction and takes each page's turn lock
 * first, held to its commit (delivery-turns.sql.ts). `round` is the ids of the events the round
 * claimed: events of the same pages that other relays hold right now count as ahead.
 */
export async function decideTurns(em: EntityManager, deliveries: readonly OrderedDelivery[], round: readonly string[]): Promise<Set<OrderedDelivery>> {
  const takers = new Set<OrderedDelivery>();
  if (deliveries.length === 0) return takers;
  const pairs = new Map<string, OrderedDelivery[]>();
  for (const d of deliveries) {
    const pair = `${d.subscriptionId} ${d.orderKey}`;
    const list = pairs.get(pair);
    if (list) list.push(d);
    else pairs.set(pair, [d]);
  }
  const firsts = [...pairs.values()].map((list) => list[0]);
  const subscriptions = firsts.map((d) => d.subscriptionId);
  const keys = firsts.map((d) => d.orderKey);
  await sqlRows(em, LOCK_TURNS_SQL, [subscriptions, keys]);
  const states = new Map<string, PageTurn>();
  for (const row of await sqlRows<StoredColumns<'webhook_deliveries', 'subscription_id'> & { order_key: string; taken: boolean; earliest_waiting: string | null }>(em, TURN_STATES_SQL, [subscriptions, keys])) {
    states.set(`${row.subscription_id} ${row.order_key}`, { taken: row.taken, earliestAhead: row.earliest_waiting === null ? null : Number(row.earliest_waiting) });
  }
  const unrelayed = await unrelayedEarliest(em, deliveries, round);
  for (const [pair, list] of pairs) {
    const state = states.get(pair) ?? { taken: false, earliestAhead: null };
    const other = unrelayed.get(`${list[0].tenantId} ${list[0].orderKey}`);
    const ahead = [state.earliestAhead, other ?? null].filter((seq): seq is number => seq !== null);
    const taker = turnTaker({ taken: state.taken, earliestAhead: ahead.length > 0 ? Math.min(...ahead) : null }, list.map((d) => d.orderSeq));
    if (taker !== null) takers.add(list[taker]);
  }
  return takers;
}

/** The lowest version, per tenant and page, among the ordered events other relays are relaying now. */
async function unrelayedEarliest(em: EntityManager, deliveries: readonly OrderedDelivery[], round: readonly string[]): Promise<Map<string, number>> {
  const last = round.reduce((max, id) => (id > max ? id : max), '');
  const tenants = [...new Set(deliveries.map((d) => d.tenantId))];
  const rows = await sqlRows<StoredColumns<'outbox_events', 'tenant_id' | 'type' | 'body'>>(em, UNRELAYED_EARLIER_SQL, [last, round, tenants, ORDERED_EVENT_TYPES]);
  const earliest = new Map<string, number>();
  for (const row of rows) {
    const position = orderPositionOf(row.type, row.body);
    if (!position) continue;
    const key = `${row.tenant_id} ${position.key}`;
    earliest.set(key, Math.min(earliest.get(key) ?? Infinity, position.seq));
  }
  return earliest;
}
