import { InvalidValueError } from '../shared/domain-error';
import { DELIVERY_ORDERINGS, type DeliveryOrdering } from './subscription-kinds';


/** The ordering as given, checked; absent: `none`. */
export function checkOrdering(value: unknown): DeliveryOrdering {
  if (value === undefined) return 'none';
  if (typeof value !== 'string' || !(DELIVERY_ORDERINGS as readonly string[]).includes(value)) {
    throw new InvalidValueError('ordering', `must be one of ${DELIVERY_ORDERINGS.join(', ')}`);
  }
  return value as DeliveryOrdering;
}

/**
 * Where an event stands in its page's order: the page (`key`) and the version's number (`seq`).
 * Null for an event that is not ordered: one about no page (brand, subscription health), or a
 * manual delivery (redeliver, recover, test), which never goes through here.
 */
export interface OrderPosition {
  key: string;
  seq: number;
}

/** The kinds of event that are ordered per page, with where their page and number are in `data`. */
const ORDERED_KINDS: Readonly<Record<string, { key: string; seq: string }>> = {
  'page.version.created': { key: 'pageId', seq: 'version' },
};

/** The kinds of event that have a place in a page's order. */
export const ORDERED_EVENT_TYPES: readonly string[] = Object.keys(ORDERED_KINDS);

/** Whether events of this kind have a place in a page's order (only these bodies are read for it). */
export function isOrderedKind(type: string): boolean {
  return Object.hasOwn(ORDERED_KINDS, type);
}

/**
 * The event's place in its page's order, read from its delivery envelope's `data`; null for a kind
 * that is not ordered, or a body that does not name its page and number (never sent in order
 * rather than held back for ever).
 */
export function orderPositionOf(type: string, body: string): OrderPosition | null {
  if (!isOrderedKind(type)) return null;
  const fields = ORDERED_KINDS[type];
  try {
    const data = (JSON.parse(body) as { data?: Record<string, unknown> }).data ?? {};
    const key = data[fields.key];
    const seq = data[fields.seq];
    return typeof key === 'string' && Number.isSafeInteger(seq) ? { key, seq: seq as number } : null;
  } catch {
    return null;
  }
}

/** A subscription's position for this event: only an ordered subscription orders (and only it reads the event's place). */
export function orderFor(ordering: DeliveryOrdering, position: () => OrderPosition | null): OrderPosition | null {
  return ordering === 'page' ? position() : null;
}

/**
 * What the relay knows of one page's turn on one subscription as it makes the page's new
 * deliveries, read under the turn's lock.
 */
export interface PageTurn {
  /** One of the page's deliveries has the turn: unfinished and not waiting. */
  taken: boolean;
  /**
   * The lowest version number still ahead of the new ones: among the page's waiting deliveries,
   * and among its events another relay is making deliveries of right now. Null when none.
   */
  earliestAhead: number | null;
}

/**
 * Which of a page's new deliveries (by version number `seqs`) takes the turn: the earliest, when
 * no delivery has it and nothing earlier is ahead; otherwise none, and all of them wait. A new
 * one that takes the turn goes as any delivery; those that wait go one by one as the turn passes.
 */
export function turnTaker(turn: PageTurn, seqs: readonly number[]): number | null {
  if (turn.taken || seqs.length === 0) return null;
  let first = 0;
  for (let i = 1; i < seqs.length; i++) if (seqs[i] < seqs[first]) first = i;
  return turn.earliestAhead !== null && turn.earliestAhead < seqs[first] ? null : first;
}
