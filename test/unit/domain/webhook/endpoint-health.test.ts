import {
  afterFailure, afterSuccess, breakerOpen, EndpointHealth, healthState, NO_ATTEMPT_YET, probeDelayMs, turnedBackOn,
} from '../../../../src/domain/webhook/endpoint-health';

const policy = { breakerFailures: 3, disableAfterMs: 60_000 };
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
    expect(failing).toEqual({ consecutiveFailures: 1, lastSuccessAt: null, lastFailureAt: t(1), disableAt: t(61), disabledReason: null });
    const healthy = afterSuccess(failing, t(2), policy);
    expect(healthy).toEqual({ health: { consecutiveFailures: 0, lastSuccessAt: t(2), lastFailureAt: t(1), disableAt: null, disabledReason: null }, change: null });
    expect(healthState(healthy.health, true)).toBe('healthy');
  });

  it('keeps the first failure’s deadline while failing, and a new one after a success', () => {
    expect(failedAt(1, 10, 20).disableAt).toEqual(t(61));
    const again = afterFailure(afterSuccess(failedAt(1), t(5), policy).health, t(30), policy, false).health;
    expect(again.disableAt).toEqual(t(90));
  });

  it('opens the breaker at the threshold, once, and a success closes it as recovered', () => {
    const two = failedAt(1, 2);
    expect(breakerOpen(two, policy)).toBe(false);
    const third = afterFailure(two, t(3), policy, false);
    expect(third.change).toBe('breaker-opened');
    expect(breakerOpen(third.health, policy)).toBe(true);
    expect(afterFailure(third.health, t(4), policy, false).change).toBeNull();
    const success = afterSuccess(third.health, t(5), policy);
    expect(success.change).toBe('recovered');
    expect(breakerOpen(success.health, policy)).toBe(false);
    expect(afterSuccess(success.health, t(6), policy).change).toBeNull();
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
    const tested = afterSuccess(off, t(2), policy);
    expect(tested.change).toBeNull();
    expect(healthState(tested.health, false)).toBe('disabled');
    const on = turnedBackOn(tested.health);
    expect(on).toEqual({ consecutiveFailures: 0, lastSuccessAt: t(2), lastFailureAt: t(1), disableAt: null, disabledReason: null });
    expect(healthState(on, true)).toBe('healthy');
    expect(turnedBackOn(failedAt(1))).toEqual(failedAt(1));
  });

  it('probes at the schedule’s gaps, the last repeating', () => {
    const schedule = [1000, 5000, 30_000];
    expect([0, 1, 2, 3, 9].map((n) => probeDelayMs(n, schedule))).toEqual([1000, 5000, 30_000, 30_000, 30_000]);
  });
});
