import { AttemptSituation, decideAttempt, releasePlan, spreadAfter } from '../../../../src/domain/webhook/attempt-decision';
import { heldAfterAttempt } from '../../../../src/domain/webhook/attempt-conclusion';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

/** A scheduled attempt to an active subscription listing its kind, breaker closed, no pace. */
function situation(changes: { manual?: boolean; probe?: boolean; subscription?: Partial<AttemptSituation['subscription']>; pace?: Partial<AttemptSituation['pace']> } = {}): AttemptSituation {
  return {
    eventType: 'page.version.created',
    manual: changes.manual ?? false,
    probe: changes.probe ?? false,
    subscription: { id: 'whsub_a', active: true, deleted: false, events: ['page.version.created'], disabledReason: null, nextProbeAt: null, ...changes.subscription },
    pace: { ratePerSecond: null, notBefore: null, slotAt: null, ...changes.pace },
  };
}

// Every state an attempt can meet, and its one step (issue 42, item 1).
describe('decideAttempt', () => {
  it.each([
    ['a healthy subscription', situation(), { kind: 'send', probe: false }],
    ['a deactivated subscription', situation({ subscription: { active: false } }), { kind: 'cancel', status: 'cancelled' }],
    ['a deleted subscription', situation({ subscription: { active: false, deleted: true } }), { kind: 'cancel', status: 'cancelled' }],
    ['a kind no longer listed', situation({ subscription: { events: ['brand.created'] } }), { kind: 'cancel', status: 'cancelled' }],
    ['one turned off for failing', situation({ subscription: { active: false, disabledReason: 'failing' } }), { kind: 'cancel', status: 'failed' }],
    ['one turned off as gone', situation({ subscription: { active: false, disabledReason: 'gone' } }), { kind: 'cancel', status: 'cancelled' }],
    ['an open breaker', situation({ subscription: { nextProbeAt: at(5000) } }), { kind: 'hold' }],
    ['an open breaker whose probe is past due (the worker wakes it)', situation({ subscription: { nextProbeAt: at(-5000) } }), { kind: 'hold' }],
    ['the probe the worker woke', situation({ probe: true, subscription: { nextProbeAt: at(30_000) } }), { kind: 'send', probe: true }],
    ['a probe whose breaker has closed since', situation({ probe: true }), { kind: 'send', probe: false }],
    ['a receiver’s Retry-After', situation({ pace: { notBefore: at(3000) } }), { kind: 'hold' }],
    ['a Retry-After that has passed', situation({ pace: { notBefore: at(-1) } }), { kind: 'send', probe: false }],
    ['a rate and no slot', situation({ pace: { ratePerSecond: 5 } }), { kind: 'take-slot' }],
    ['a rate and a slot ahead', situation({ pace: { ratePerSecond: 5, slotAt: at(200) } }), { kind: 'put-off', until: at(200), slotTaken: true }],
    ['a rate and its slot now', situation({ pace: { ratePerSecond: 5, slotAt: at(-99) } }), { kind: 'send', probe: false }],
    ['a rate and a slot missed by half a spacing', situation({ pace: { ratePerSecond: 5, slotAt: at(-100) } }), { kind: 'take-slot' }],
    ['a rate under a Retry-After (the slot carries it)', situation({ pace: { ratePerSecond: 5, notBefore: at(60_000) } }), { kind: 'take-slot' }],
    ['a manual attempt to a deactivated subscription', situation({ manual: true, subscription: { active: false, events: [] } }), { kind: 'send', probe: false }],
    ['a manual attempt to a deleted subscription', situation({ manual: true, subscription: { active: false, deleted: true } }), { kind: 'cancel', status: 'cancelled' }],
    ['a manual attempt while the breaker is open', situation({ manual: true, subscription: { nextProbeAt: at(5000) } }), { kind: 'send', probe: false }],
    ['a manual attempt under a Retry-After', situation({ manual: true, pace: { notBefore: at(3000) } }), { kind: 'put-off', until: at(3000), slotTaken: false }],
  ] as const)('%s', (_, s, step) => {
    expect(decideAttempt(s, NOW, 0)).toEqual(step);
  });
});

describe('what follows a sent attempt', () => {
  it.each([
    [{ manual: false, breakerOpen: true, next: 'pending' }, true],
    [{ manual: false, breakerOpen: true, next: 'failed', reason: 'schedule-exhausted' }, true],
    [{ manual: false, breakerOpen: true, next: 'failed', reason: 'gone' }, false],
    [{ manual: false, breakerOpen: true, next: 'delivered' }, false],
    [{ manual: false, breakerOpen: false, next: 'pending' }, false],
    [{ manual: true, breakerOpen: true, next: 'failed', reason: 'schedule-exhausted' }, false],
  ] as const)('%j is held: %s', (input, held) => {
    expect(heldAfterAttempt(input)).toBe(held);
  });
});

describe('no storms', () => {
  it('puts attempts off past a Retry-After, spread over a fifth of the wait and at least a second', () => {
    expect(spreadAfter(at(60_000), NOW, 0)).toEqual(at(60_000));
    expect(spreadAfter(at(60_000), NOW, 0.999).getTime() - at(60_000).getTime()).toBe(11_988);
    expect(spreadAfter(at(2000), NOW, 0.5)).toEqual(at(2500));
  });

  it('releases a page over at least a second in 50 ms steps, or one slot apart at the subscription’s rate', () => {
    const randoms = [0, 0.5, 0.999, 0.26];
    const free = releasePlan(4, null, () => randoms.shift()!);
    expect(free).toEqual({ offsetsMs: [0, 500, 950, 250], spreadMs: 1000 });
    expect(releasePlan(3, 5, () => 0)).toEqual({ offsetsMs: [0, 200, 400], spreadMs: 1000 });
    expect(releasePlan(1000, 100, () => 0).spreadMs).toBe(10_000);
  });
});
