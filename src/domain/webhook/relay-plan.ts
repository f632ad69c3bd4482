import { decideAttempt, DeliveryState } from './attempt-decision';
import { DeliveryFilter, EventSubjects, subjectsOf } from './delivery-filter';
import { DeliveryOrdering } from './subscription-kinds';
import { orderFor, OrderPosition, orderPositionOf, PageTurn, turnTaker } from './delivery-ordering';
import { deliverySubjectOf } from './delivery-subject';
import { EventToDeliver, wantsEvent } from './subscription-matching';

// A relay round planned once: from the events it claimed and the live subscriptions it read, the
// deliveries it makes, each with its place in its page's order and its first attempt decided as a
// claim would decide it (decideAttempt), and which of the ordered ones take their page's turn.
// Pure: the relay's use case reads, plans and writes; its SQL adapter decides nothing.

/** An event a round claimed; `about` the subscription a subscription's own event concerns. */
export interface RoundEvent {
  id: string;
  tenantId: string;
  type: string;
  body: string;
  about: string | null;
}

/** A live subscription an event may go to, as the round read it. */
export interface RoundSubscription {
  tenantId: string;
  events: readonly string[];
  filter: DeliveryFilter | null;
  ordering: DeliveryOrdering;
  /** Its delivery state as read (never deleted: only live ones are read). */
  state: DeliveryState;
}

/**
 * What a new delivery's first attempt is: `send` at once without a claim (the relay decided it),
 * `held` with its subscription (open breaker, Retry-After: never claimed only to be parked),
 * `claim` when its job runs (a rate slot to take), or `wait` for its page's turn (no job).
 */
export type FirstAttempt = 'send' | 'held' | 'claim' | 'wait';

export interface PlannedDelivery {
  id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** What the event is about (deliverySubjectOf), for the delivery search. */
  subject: string | null;
  /** Its place in its page's order, for a subscription that orders. */
  order: OrderPosition | null;
  first: FirstAttempt;
}

export interface RoundPlan {
  /** The events the round takes, in id order: as many as fit its bound (one at least); the rest stay for the next. */
  events: RoundEvent[];
  deliveries: PlannedDelivery[];
}

/** One page of one ordering subscription whose turn the round asks about. */
export interface PageAsked {
  tenantId: string;
  subscriptionId: string;
  orderKey: string;
}

/** A page's turn as read. */
export interface PageTurnRead extends PageTurn {
  subscriptionId: string;
  orderKey: string;
}

/**
 * The round's deliveries: one per event and matching subscription (wantsEvent, the filter read
 * from the body only where a subscription has one), events taken while their deliveries fit
 * `maxDeliveries` (the first always), each with its order position and first attempt.
 */
export function planRound(claimed: readonly RoundEvent[], subscriptions: readonly RoundSubscription[], now: Date, maxDeliveries: number, newId: () => string): RoundPlan {
  const subjects = new Map<string, EventSubjects>();
  const about = (event: RoundEvent): EventToDeliver => {
    let found = subjects.get(event.id);
    if (!found) subjects.set(event.id, (found = subjectsOf(event.body)));
    return { ...event, subjects: found };
  };
  const matching = (event: RoundEvent) =>
    subscriptions.filter((s) => s.tenantId === event.tenantId && wantsEvent({ ...s.state.subscription, filter: s.filter }, s.filter ? about(event) : event));
  const taken: { event: RoundEvent; to: RoundSubscription[] }[] = [];
  let rows = 0;
  for (const event of claimed) {
    const to = matching(event);
    if (taken.length > 0 && rows + to.length > maxDeliveries) break;
    taken.push({ event, to });
    rows += to.length;
  }
  const positions = new Map<string, OrderPosition | null>();
  const positionOf = (event: RoundEvent) => {
    if (!positions.has(event.id)) positions.set(event.id, orderPositionOf(event.type, event.body));
    return positions.get(event.id) ?? null;
  };
  const deliveries: PlannedDelivery[] = [];
  for (const { event, to } of taken) {
    const subject = to.length > 0 ? deliverySubjectOf(event.type, event.body) : null;
    for (const s of to) {
      deliveries.push({
        id: newId(),
        tenantId: event.tenantId,
        subscriptionId: s.state.subscription.id,
        eventId: event.id,
        eventType: event.type,
        subject,
        order: orderFor(s.ordering, () => positionOf(event)),
        first: firstAttemptOf(event, s.state, now),
      });
    }
  }
  return { events: taken.map(({ event }) => event), deliveries };
}

/** The first attempt as what the round read decides it, as a claim would. */
function firstAttemptOf(event: RoundEvent, state: DeliveryState, now: Date): FirstAttempt {
  const step = decideAttempt({ eventType: event.type, manual: false, probe: false, ...state }, now);
  return step.kind === 'hold' ? 'held' : step.kind === 'send' ? 'send' : 'claim';
}

/** The pages whose turns the round's ordered deliveries ask about, one per subscription and page, in the round's order. */
export function pagesAsked(plan: RoundPlan): PageAsked[] {
  const pages = new Map<string, PageAsked>();
  for (const d of plan.deliveries) {
    const pair = pairOf(d.subscriptionId, d.order?.key);
    if (d.order && !pages.has(pair)) pages.set(pair, { tenantId: d.tenantId, subscriptionId: d.subscriptionId, orderKey: d.order.key });
  }
  return [...pages.values()];
}

/** The lowest version, per tenant and page, among ordered events other relays are relaying now. */
export function earliestUnrelayed(events: readonly { tenantId: string; type: string; body: string }[]): Map<string, number> {
  const earliest = new Map<string, number>();
  for (const event of events) {
    const position = orderPositionOf(event.type, event.body);
    if (!position) continue;
    const key = `${event.tenantId} ${position.key}`;
    earliest.set(key, Math.min(earliest.get(key) ?? Infinity, position.seq));
  }
  return earliest;
}

/**
 * Which of the round's ordered deliveries take their page's turn (turnTaker), from each page's
 * turn as read (`read`; a page not among them has no delivery yet) and the versions other relays
 * hold right now (`unrelayed`, from earliestUnrelayed): the others are made to wait, with no
 * first attempt.
 */
export function takeTurns(plan: RoundPlan, read: readonly PageTurnRead[], unrelayed: ReadonlyMap<string, number>): RoundPlan {
  const turns = new Map(read.map((t) => [pairOf(t.subscriptionId, t.orderKey), t]));
  const byPage = new Map<string, PlannedDelivery[]>();
  for (const d of plan.deliveries) {
    if (!d.order) continue;
    const pair = pairOf(d.subscriptionId, d.order.key);
    const list = byPage.get(pair);
    if (list) list.push(d);
    else byPage.set(pair, [d]);
  }
  if (byPage.size === 0) return plan;
  const takers = new Set<PlannedDelivery>();
  for (const [pair, list] of byPage) {
    const turn = turns.get(pair) ?? { taken: false, earliestAhead: null };
    const other = unrelayed.get(`${list[0].tenantId} ${list[0].order!.key}`);
    const ahead = [turn.earliestAhead, other ?? null].filter((seq): seq is number => seq !== null);
    const taker = turnTaker({ taken: turn.taken, earliestAhead: ahead.length > 0 ? Math.min(...ahead) : null }, list.map((d) => d.order!.seq));
    if (taker !== null) takers.add(list[taker]);
  }
  return { ...plan, deliveries: plan.deliveries.map((d) => (d.order && !takers.has(d) ? { ...d, first: 'wait' as const } : d)) };
}

/** The key of one subscription's page. */
function pairOf(subscriptionId: string, orderKey: string | undefined): string {
  return `${subscriptionId} ${orderKey}`;
}
