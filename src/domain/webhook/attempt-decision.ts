import { DisabledReason } from './subscription-kinds';
import { wantsEvent } from './subscription-matching';

// One decision per attempt (issue 42): what a claimed attempt does, from the delivery, its
// subscription's delivery state (on or off, its breaker, its pace) and the time. Pure: the use
// case applies the step, and no rule about health, the breaker, the pace or Retry-After lives
// anywhere else.

/**
 * A subscription's delivery state as deciding an attempt reads it: on or off, its breaker, its
 * pace. The one snapshot type: a claim, the relay's read and the worker's fresh read carry it.
 */
export interface DeliveryState {
  subscription: {
    id: string;
    active: boolean;
    deleted: boolean;
    events: readonly string[];
    disabledReason: DisabledReason | null;
    /** While the breaker is open: when its next probe is due (or the lease of the one out); null when closed. */
    nextProbeAt: Date | null;
  };
  pace: {
    /** The customer's limit on attempts per second; null for none. */
    ratePerSecond: number | null;
    /** No attempt before this: the receiver's Retry-After (or, with a rate, the next free slot). */
    notBefore: Date | null;
    /** The rate slot this attempt holds (taken when it was put off); null when none. */
    slotAt: Date | null;
  };
}

/** What deciding an attempt needs to know. */
export interface AttemptSituation extends DeliveryState {
  eventType: string;
  /** A delivery the customer asked for (redeliver, recover, test): one attempt, never held. */
  manual: boolean;
  /** The worker woke this delivery as its subscription's breaker probe. */
  probe: boolean;
}

export type AttemptStep =
  /** Ended unsent: `failed` when the platform turned the subscription off for failing (recover brings it back). */
  | { kind: 'cancel'; status: 'cancelled' | 'failed' }
  /** Parked with its subscription (open breaker, Retry-After): no job; the worker wakes it per subscription. */
  | { kind: 'hold' }
  /** A rate slot is needed first: take one, then decide again with it. */
  | { kind: 'take-slot' }
  /** Not now: at `until` (a rate slot when `slotTaken`, or a manual attempt's Retry-After). */
  | { kind: 'put-off'; until: Date; slotTaken: boolean }
  | { kind: 'send'; probe: boolean };

/**
 * How late an attempt may be sent after its rate slot: half the slots' spacing, at least 50 ms.
 * Sent later (its job came back late on a busy machine), it would land next to the following
 * slot's attempt and two would arrive closer than the rate allows: it takes a new slot instead.
 * So every send is within [slot, slot + half a spacing), and any one second holds at most the
 * rate plus one (the window's two ends); a slot given up is lost, not sent twice.
 */
export function slotLateness(ratePerSecond: number): number {
  return Math.max(1000 / ratePerSecond / 2, 50);
}

/**
 * The step of one claimed attempt:
 * 1. A scheduled attempt goes by the subscription as it is now (wantsEvent); a manual one unless
 *    the subscription was deleted. Otherwise it ends unsent.
 * 2. While the breaker is open, a scheduled attempt is held, but the probe the worker woke.
 * 3. The pace: a slot it holds (sent in its time, or put off to it), a rate that needs a slot,
 *    or a receiver's Retry-After (held; a manual attempt put off past it, spread).
 * 4. Otherwise it is sent.
 */
export function decideAttempt(s: AttemptSituation, now: Date, random = 0): AttemptStep {
  const sub = s.subscription;
  const wanted = s.manual ? !sub.deleted : wantsEvent(sub, { type: s.eventType });
  if (!wanted) return { kind: 'cancel', status: !s.manual && sub.disabledReason === 'failing' && !sub.deleted ? 'failed' : 'cancelled' };
  if (!s.manual && sub.nextProbeAt !== null) return s.probe ? { kind: 'send', probe: true } : { kind: 'hold' };
  const { ratePerSecond, notBefore, slotAt } = s.pace;
  if (ratePerSecond !== null) {
    const late = slotAt === null || now.getTime() - slotAt.getTime() >= slotLateness(ratePerSecond);
    return late ? { kind: 'take-slot' } : stepAtSlot(slotAt, now);
  }
  if (notBefore !== null && notBefore > now) return s.manual ? { kind: 'put-off', until: spreadAfter(notBefore, now, random), slotTaken: false } : { kind: 'hold' };
  return { kind: 'send', probe: false };
}

/**
 * The step of an attempt at the rate slot it holds (a slot just taken for it, after `take-slot`,
 * is never late): sent when the slot has come, else put off to it.
 */
export function stepAtSlot(slotAt: Date, now: Date): Extract<AttemptStep, { kind: 'send' | 'put-off' }> {
  return slotAt <= now ? { kind: 'send', probe: false } : { kind: 'put-off', until: slotAt, slotTaken: true };
}

/**
 * A time at or after `at` (a receiver's Retry-After is never cut short), spread over a fifth of
 * the wait and at least a second (`random` in [0, 1)): attempts put off together do not all come
 * back at one instant.
 */
export function spreadAfter(at: Date, now: Date, random: number): Date {
  const spread = Math.max(1000, 0.2 * (at.getTime() - now.getTime()));
  return new Date(at.getTime() + Math.floor(random * spread));
}

/** At most this many held deliveries of a subscription go in one release. */
export const RELEASE_PAGE = 1000;

/**
 * When the deliveries of one release go, as offsets from now (ms): spread over at least a second
 * (never all at one instant), and at the subscription's rate where it has one (one slot apart),
 * in 50 ms steps so that the queue can carry several in one job. The next page may go once this
 * one's spread has passed.
 */
export function releasePlan(count: number, ratePerSecond: number | null, random: () => number): { offsetsMs: number[]; spreadMs: number } {
  if (ratePerSecond !== null) {
    const gap = 1000 / ratePerSecond;
    return { offsetsMs: Array.from({ length: count }, (_, i) => Math.round(i * gap)), spreadMs: Math.max(1000, Math.round(count * gap)) };
  }
  const spreadMs = 1000;
  return { offsetsMs: Array.from({ length: count }, () => Math.floor((random() * spreadMs) / 50) * 50), spreadMs };
}
