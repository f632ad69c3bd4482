// The pace of a subscription's deliveries (issue 42, item 2): its rate slots, its receiver's
// Retry-After, and the wake-ups of what its breaker or that pause held. Pure: the subscription
// aggregate keeps it, and its repository is the one writer of it, with the endpoint's health
// (endpoint-health.ts) beside it.

/** What the subscription keeps of its pace. */
export interface DeliveryPace {
  /**
   * No attempt before this (epoch ms): the receiver's Retry-After, or with a rate, the next free
   * slot. A number, not a Date: slots are 1/rate apart, under a millisecond above 1,000 a second.
   */
  readonly notBeforeMs: number | null;
  /** Held deliveries' next page goes no earlier than this (the last page's spread). */
  readonly nextReleaseAt: Date | null;
  /** The breaker's probe sent last (held deliveries take turns at being it). */
  readonly lastProbeId: string | null;
}

export const NO_PACE: DeliveryPace = { notBeforeMs: null, nextReleaseAt: null, lastProbeId: null };

/**
 * The next rate slot (a generic cell rate algorithm): the later of now and the next free slot;
 * the one after it is 1/rate later. Every worker takes turns on the subscription, so any second
 * holds at most `ratePerSecond` slots.
 */
export function takeSlot(pace: DeliveryPace, ratePerSecond: number, now: Date): { slot: Date; pace: DeliveryPace } {
  const slotMs = Math.max(pace.notBeforeMs ?? -Infinity, now.getTime());
  return { slot: new Date(slotMs), pace: { ...pace, notBeforeMs: toMicroseconds(slotMs + 1000 / ratePerSecond) } };
}

/**
 * Kept to the microsecond, as PostgreSQL keeps it: near today's epoch a double holds a millisecond
 * count to about a quarter of a microsecond, so slots added one to another without this would
 * drift (10,000 slots of 0.1 ms came out 1 ms long).
 */
function toMicroseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The receiver asked for a pause: nothing goes before `until`; a later time already set stays. */
export function pausedUntil(pace: DeliveryPace, until: Date): DeliveryPace {
  return pace.notBeforeMs !== null && pace.notBeforeMs >= until.getTime() ? pace : { ...pace, notBeforeMs: until.getTime() };
}

/** What the worker's wake-up does for a subscription with held deliveries now. */
export type HeldWake = 'probe' | 'release' | null;

/** What deciding a held subscription's wake-up reads. */
export interface HeldWakeState {
  active: boolean;
  deleted: boolean;
  /** While the breaker is open: its next probe's time (or the lease of the one out). */
  nextProbeAt: Date | null;
  pace: DeliveryPace;
}

/**
 * While the breaker of a live subscription is open, one probe once it is due. Otherwise (closed,
 * or turned off: what it held then ends as it is claimed) a page of held deliveries, once the
 * last page's spread has passed and, while live, the receiver's pause has ended.
 */
export function heldWake(s: HeldWakeState, now: Date): HeldWake {
  const live = s.active && !s.deleted;
  if (live && s.nextProbeAt !== null) return s.nextProbeAt <= now ? 'probe' : null;
  if (s.pace.nextReleaseAt !== null && s.pace.nextReleaseAt > now) return null;
  if (live && s.pace.notBeforeMs !== null && s.pace.notBeforeMs > now.getTime()) return null;
  return 'release';
}
