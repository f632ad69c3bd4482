import { HealthChange } from './endpoint-health';

// What the customer has been told of its endpoint's health, so that the events about it are
// damped (issue 42): a receiver that fails ten attempts and answers one probe, over and over,
// would otherwise make a `failing` and a `recovered` every few seconds, each fanned out to every
// subscription of the tenant that lists them.

/** The last `failing` sent, and whether a `recovered` is owed for it. */
export interface HealthNotices {
  readonly failingSentAt: Date | null;
  readonly recoveryOwed: boolean;
}

export const NOTHING_TOLD: HealthNotices = { failingSentAt: null, recoveryOwed: false };

/** At most one `webhook_subscription.failing` per subscription in this long. */
export const FAILING_NOTICE_GAP_MS = 3_600_000;

/**
 * Whether a health change is told by an event, and what has been told after it: a `failing` at
 * most once an hour; a `recovered` only for a `failing` that was sent (and once); a `disabled`
 * always (it turns the subscription off: it cannot repeat until the customer turns it back on).
 */
export function notice(change: HealthChange, told: HealthNotices, at: Date): { send: boolean; told: HealthNotices } {
  switch (change) {
    case null:
      return { send: false, told };
    case 'breaker-opened': {
      const recent = told.failingSentAt !== null && at.getTime() - told.failingSentAt.getTime() < FAILING_NOTICE_GAP_MS;
      return recent ? { send: false, told } : { send: true, told: { failingSentAt: at, recoveryOwed: true } };
    }
    case 'recovered':
      return told.recoveryOwed ? { send: true, told: { ...told, recoveryOwed: false } } : { send: false, told };
    case 'disabled':
      return { send: true, told: { ...told, recoveryOwed: false } };
  }
}
