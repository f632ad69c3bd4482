import {
  afterFailure, afterSuccess, breakerOpen, EndpointHealth, healthState, NO_ATTEMPT_YET, probeDelayMs, turnedBackOn,
} from '../../../../src/domain/webhook/endpoint-health';

const policy = { breakerFailures: 3, disableAfterMs: 60_000, probeGapsMs: [1000, 5000] };
const t = (s: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, s));

/** The health after failures at the given seconds, from none. */
function failedAt(...seconds: number[]): EndpointHealth {
  return seconds.reduce((health, s) => afterFailure(health, t(s), policy, false).health, NO_ATTEMPT_YET);
}

describe('endpoint health', () => {
  it('is healthy before any attempt, failing after a failure, healthy again after a success', () => {
    expect(healthState(NO_ATTEMPT_YET, true)).toBe('healthy');
    const failing = failedAt(1);
    expect(healthState(failing, true)).toBe('failing');
    expect(failing).toEqual({ ...NO_ATTEMPT_YET, consecutiveFailures: 1, lastFailureAt: t(1), disableAt: t(61) });
    const healthy = afterSuccess(failing, t(2));
    expect(healthy).toEqual({ health: { ...NO_ATTEMPT_YET, lastSuccessAt: t(2), lastFailureAt: t(1) }, change: null });
    expect(healthState(healthy.health, true)).toBe('healthy');
  });

  it('keeps the first failure’s deadline while failing, and a new one after a success', () => {
    expect(failedAt(1, 10, 20).disableAt).toEqual(t(61));
    const again = afterFailure(afterSuccess(failedAt(1), t(5)).health, t(30), policy, false).health;
    expect(again.disableAt).toEqual(t(90));
  });

  it('opens the breaker at the threshold, once, and a success closes it as recovered', () => {
    const two = failedAt(1, 2);
    expect(breakerOpen(two)).toBe(false);
    const third = afterFailure(two, t(3), policy, false);
    expect(third.change).toBe('breaker-opened');
    expect(breakerOpen(third.health)).toBe(true);
    // The first probe after the schedule's first gap, each failed probe after the next, the last repeating.
    expect(third.health).toMatchObject({ nextProbeAt: t(4), probesMade: 0 });
    // An attempt already in flight when it opened is no probe: it moves nothing on.
    expect(afterFailure(third.health, t(3), policy, false).health).toMatchObject({ nextProbeAt: t(4), probesMade: 0, consecutiveFailures: 4 });
    const probeFailed = afterFailure(third.health, t(4), policy, false, true);
    expect(probeFailed).toEqual({ change: null, health: expect.objectContaining({ nextProbeAt: t(9), probesMade: 1 }) });
    expect(afterFailure(probeFailed.health, t(9), policy, false, true).health).toMatchObject({ nextProbeAt: t(14), probesMade: 2 });
    expect(breakerOpen(third.health)).toBe(true);
    expect(breakerOpen(NO_ATTEMPT_YET)).toBe(false);
    const success = afterSuccess(third.health, t(5));
    expect(success.change).toBe('recovered');
    expect(breakerOpen(success.health)).toBe(false);
    expect(success.health).toMatchObject({ nextProbeAt: null, probesMade: 0 });
    expect(afterSuccess(success.health, t(6)).change).toBeNull();
  });

  it('turns the endpoint off on a 410 at once, as gone', () => {
    const gone = afterFailure(NO_ATTEMPT_YET, t(1), policy, true);
    expect(gone).toEqual({ change: 'disabled', health: expect.objectContaining({ disabledReason: 'gone', consecutiveFailures: 1, disableAt: null }) });
    expect(healthState(gone.health, false)).toBe('disabled');
  });

  it('turns it off as failing once it failed with no success until its deadline, and only counts failures after', () => {
    const before = failedAt(1, 30);
    const off = afterFailure(before, t(61), policy, false);
    expect(off.change).toBe('disabled');
    expect(off.health.disabledReason).toBe('failing');
    const later = afterFailure(off.health, t(70), policy, false);
    expect(later).toEqual({ change: null, health: expect.objectContaining({ disabledReason: 'failing', consecutiveFailures: 4 }) });
  });

  it('stays disabled after a successful test until the customer turns it back on, which clears it', () => {
    const off = afterFailure(NO_ATTEMPT_YET, t(1), policy, true).health;
    const tested = afterSuccess(off, t(2));
    expect(tested.change).toBeNull();
    expect(healthState(tested.health, false)).toBe('disabled');
    const on = turnedBackOn(tested.health);
    expect(on).toEqual({ ...NO_ATTEMPT_YET, lastSuccessAt: t(2), lastFailureAt: t(1) });
    expect(healthState(on, true)).toBe('healthy');
    expect(turnedBackOn(failedAt(1))).toEqual(failedAt(1));
  });

  it('probes at the schedule’s gaps, the last repeating', () => {
    const schedule = [1000, 5000, 30_000];
    expect([0, 1, 2, 3, 9].map((n) => probeDelayMs(n, schedule))).toEqual([1000, 5000, 30_000, 30_000, 30_000]);
  });
});
