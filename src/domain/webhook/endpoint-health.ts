import type { DisabledReason } from './subscription-kinds';
// The health of a subscription's endpoint (issue 30): what its attempts say about the receiver,
// the circuit breaker that holds deliveries while it fails, and the two rules that turn it off.
// Pure: the aggregate keeps the state, the worker reports each finished attempt.

/** Why the platform turned a subscription off: a 410 Gone, or failing for too long. */

export type HealthState = 'healthy' | 'failing' | 'disabled';

export interface EndpointHealth {
  /** Finished attempts that failed since the last one that succeeded. */
  readonly consecutiveFailures: number;
  readonly lastSuccessAt: Date | null;
  readonly lastFailureAt: Date | null;
  /** While failing: when the platform turns the subscription off if nothing succeeds before. */
  readonly disableAt: Date | null;
  /** Set when the platform turned it off; cleared only when the customer turns it back on. */
  readonly disabledReason: DisabledReason | null;
  /** While the breaker is open: the earliest time of its next probe (the one attempt let through). */
  readonly nextProbeAt: Date | null;
  /** Probes that failed since the breaker opened: which gap of the schedule comes next. */
  readonly probesMade: number;
}

/** A new subscription's health: no attempt yet. */
export const NO_ATTEMPT_YET: EndpointHealth = {
  consecutiveFailures: 0,
  lastSuccessAt: null,
  lastFailureAt: null,
  disableAt: null,
  disabledReason: null,
  nextProbeAt: null,
  probesMade: 0,
};

/** WEBHOOK_BREAKER_FAILURES and WEBHOOK_DISABLE_AFTER. */
export interface HealthPolicy {
  /** Consecutive failures that open the breaker (default 10). */
  readonly breakerFailures: number;
  /** How long an endpoint may fail with no success before it is turned off (default 5 days). */
  readonly disableAfterMs: number;
  /** The waits between the breaker's probes: WEBHOOK_RETRY_SCHEDULE's gaps, the last repeating. */
  readonly probeGapsMs: readonly number[];
}

/** What an attempt changed that the customer is told of by an event. */
export type HealthChange = 'breaker-opened' | 'recovered' | 'disabled' | null;

/** `healthy` (no attempt yet, or the last one succeeded), `failing`, or `disabled` by the platform. */
export function healthState(health: EndpointHealth, active: boolean): HealthState {
  if (!active && health.disabledReason !== null) return 'disabled';
  return health.consecutiveFailures > 0 ? 'failing' : 'healthy';
}

/** Whether deliveries are held for the endpoint: it failed `breakerFailures` times in a row. */
export function breakerOpen(health: EndpointHealth): boolean {
  return health.disabledReason === null && health.nextProbeAt !== null;
}

/**
 * A finished attempt succeeded (a manual one too): the endpoint is healthy again, and if its
 * breaker was open it closes (`recovered`). A subscription the platform turned off stays off
 * until the customer turns it on: a test that succeeds tells them it is safe to.
 */
export function afterSuccess(health: EndpointHealth, at: Date): { health: EndpointHealth; change: HealthChange } {
  const change = breakerOpen(health) ? 'recovered' : null;
  return {
    health: { ...health, consecutiveFailures: 0, lastSuccessAt: latest(health.lastSuccessAt, at), disableAt: null, nextProbeAt: null, probesMade: 0 },
    change,
  };
}

/**
 * A finished attempt failed (`gone`: the receiver answered 410). A 410 turns the subscription off
 * at once; otherwise it is turned off once it has failed with no success until `disableAt`
 * (set by the first failure after a success), and the breaker opens at `breakerFailures`; a
 * failed `probe` of the open breaker sets the next one a longer gap away. An endpoint already
 * off only counts the failure.
 */
export function afterFailure(health: EndpointHealth, at: Date, policy: HealthPolicy, gone: boolean, probe = false): { health: EndpointHealth; change: HealthChange } {
  const counted = { ...health, consecutiveFailures: health.consecutiveFailures + 1, lastFailureAt: latest(health.lastFailureAt, at) };
  if (health.disabledReason !== null) return { health: counted, change: null };
  const off = { ...counted, disableAt: null, nextProbeAt: null, probesMade: 0 };
  if (gone) return { health: { ...off, disabledReason: 'gone' }, change: 'disabled' };
  const disableAt = health.disableAt ?? new Date(at.getTime() + policy.disableAfterMs);
  if (at >= disableAt) return { health: { ...off, disabledReason: 'failing' }, change: 'disabled' };
  if (counted.consecutiveFailures < policy.breakerFailures) return { health: { ...counted, disableAt }, change: null };
  // The breaker is open: the next probe after a gap of the schedule, a longer one each time. An
  // attempt that was already in flight when it opened is no probe: it moves nothing on.
  const opened = health.nextProbeAt === null;
  if (!opened && !probe) return { health: { ...counted, disableAt }, change: null };
  const probesMade = opened ? 0 : health.probesMade + 1;
  const nextProbeAt = new Date(at.getTime() + probeDelayMs(probesMade, policy.probeGapsMs));
  return { health: { ...counted, disableAt, nextProbeAt, probesMade }, change: opened ? 'breaker-opened' : null };
}

/** The customer turned the subscription back on: whatever the platform decided is forgotten. */
export function turnedBackOn(health: EndpointHealth): EndpointHealth {
  return health.disabledReason === null ? health : { ...health, consecutiveFailures: 0, disableAt: null, disabledReason: null, nextProbeAt: null, probesMade: 0 };
}

/**
 * The wait before the breaker's next probe after `probesMade` failed ones: the retry schedule's
 * gaps in order, the last repeating.
 */
export function probeDelayMs(probesMade: number, schedule: readonly number[]): number {
  return schedule[Math.min(probesMade, schedule.length - 1)];
}

function latest(current: Date | null, at: Date): Date {
  return current !== null && current > at ? current : at;
}
