import { heldWake, HeldWakeState, NO_PACE, pausedUntil, takeSlot } from '../../../../src/domain/webhook/delivery-pace';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 28) + ms);
const T0 = at(0).getTime();

describe('a subscription’s rate slots', () => {
  it('are 1/rate apart from the first, never before now, and a gap starts again at now', () => {
    let pace = NO_PACE;
    const slots: number[] = [];
    for (let i = 0; i < 3; i++) {
      const taken = takeSlot(pace, 5, at(0));
      slots.push(taken.slot.getTime() - T0);
      pace = taken.pace;
    }
    expect(slots).toEqual([0, 200, 400]);
    expect(takeSlot(pace, 5, at(10_000)).slot).toEqual(at(10_000));
  });

  it('keep fractions of a millisecond above 1,000 a second, so that a second holds the rate and no more', () => {
    let pace = NO_PACE;
    let last = 0;
    for (let i = 0; i < 10_000; i++) {
      const taken = takeSlot(pace, 10_000, at(0));
      last = taken.slot.getTime() - T0;
      pace = taken.pace;
    }
    expect(last).toBe(999);
    expect(pace.notBeforeMs! - T0).toBeCloseTo(1000, 6);
  });
});

describe('a receiver’s pause', () => {
  it('moves the next attempt to its end, and never earlier than a later one already set', () => {
    const paused = pausedUntil(NO_PACE, at(4000));
    expect(paused.notBeforeMs).toBe(T0 + 4000);
    expect(pausedUntil(paused, at(1000)).notBeforeMs).toBe(T0 + 4000);
  });
});

describe('the wake-up of held deliveries', () => {
  const live: HeldWakeState = { active: true, deleted: false, nextProbeAt: null, pace: NO_PACE };
  const now = at(10_000);
  const cases: [string, HeldWakeState, ReturnType<typeof heldWake>][] = [
    ['breaker open, probe due', { ...live, nextProbeAt: at(10_000) }, 'probe'],
    ['breaker open, probe not due (or leased)', { ...live, nextProbeAt: at(10_001) }, null],
    ['breaker closed, nothing pending', live, 'release'],
    ['breaker closed, the last page still spreading', { ...live, pace: { ...NO_PACE, nextReleaseAt: at(10_001) } }, null],
    ['breaker closed, the last page spread', { ...live, pace: { ...NO_PACE, nextReleaseAt: at(10_000) } }, 'release'],
    ['the receiver’s pause still on', { ...live, pace: { ...NO_PACE, notBeforeMs: T0 + 10_001 } }, null],
    ['the receiver’s pause over', { ...live, pace: { ...NO_PACE, notBeforeMs: T0 + 10_000 } }, 'release'],
    ['turned off with the breaker open: released to end', { ...live, active: false, nextProbeAt: at(20_000) }, 'release'],
    ['deleted during a pause: released to end', { ...live, deleted: true, pace: { ...NO_PACE, notBeforeMs: T0 + 20_000 } }, 'release'],
    ['turned off, the last page still spreading', { ...live, active: false, pace: { ...NO_PACE, nextReleaseAt: at(10_001) } }, null],
  ];
  it.each(cases)('%s', (_name, state, wake) => {
    expect(heldWake(state, now)).toBe(wake);
  });
});
