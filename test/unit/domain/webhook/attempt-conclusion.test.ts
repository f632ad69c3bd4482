import { AttemptConclusion, AttemptEnding, concludeAttempt } from '../../../../src/domain/webhook/attempt-conclusion';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
/** Two retries: attempt 3 is the schedule's last. */
const SCHEDULE = [1000, 60_000];

const answers = {
  '2xx': { statusCode: 204 },
  '500': { statusCode: 500 },
  'no answer': { statusCode: null },
  '410 Gone': { statusCode: 410 },
  '429 Retry-After 4 s': { statusCode: 429, retryAfterMs: 4000 },
  '503 Retry-After of days': { statusCode: 503, retryAfterMs: 30 * 86_400_000 },
} as const;
type Answer = keyof typeof answers;
const health = {
  'no change': { change: null, breakerOpen: false },
  'breaker already open': { change: null, breakerOpen: true },
  'breaker opened': { change: 'breaker-opened', breakerOpen: true },
  recovered: { change: 'recovered', breakerOpen: false },
  disabled: { change: 'disabled', breakerOpen: false },
} as const;
type Health = keyof typeof health;

const ending = (answer: Answer, h: Health, changes: Partial<AttemptEnding> = {}): AttemptEnding => ({
  attempt: 1, manual: false, ordered: false, answer: answers[answer], health: health[h], schedule: SCHEDULE, ...changes,
});
/** Nothing follows but what a row names. */
const nothing: Omit<AttemptConclusion, 'next'> = { holdAll: false, release: false, pauseUntil: null, passTurn: false, retryAt: null };
const retrying = (ms: number) => ({ ...nothing, next: { status: 'pending', nextAttemptAt: at(ms) }, retryAt: at(ms) }) as AttemptConclusion;
const heldWithSubscription = { ...nothing, next: { status: 'pending', nextAttemptAt: null } } as AttemptConclusion;
const DAY = 86_400_000;

// Every answer kind × the breaker's state after it × the receiver's pace × manual or scheduled, one
// row each; then the page's turn for each (ordered or not). random 0.5: the schedule's delay as it is.
const rows: [string, AttemptEnding, AttemptConclusion][] = [
  ['2xx', ending('2xx', 'no change'), { ...nothing, next: { status: 'delivered' } }],
  ['2xx that closes the breaker', ending('2xx', 'recovered'), { ...nothing, next: { status: 'delivered' }, release: true }],
  ['2xx, manual, while the breaker is open', ending('2xx', 'breaker already open', { manual: true }), { ...nothing, next: { status: 'delivered' } }],
  ['500, schedule left', ending('500', 'no change'), retrying(1000)],
  ['500 that opens the breaker', ending('500', 'breaker opened'), { ...heldWithSubscription, holdAll: true }],
  ['500 while the breaker is open (a probe that failed)', ending('500', 'breaker already open'), heldWithSubscription],
  ['500, the schedule’s last attempt', ending('500', 'no change', { attempt: 3 }), { ...nothing, next: { status: 'failed', reason: 'schedule-exhausted' } }],
  ['500, the schedule’s last, breaker open: held, never given up for it', ending('500', 'breaker already open', { attempt: 3 }), heldWithSubscription],
  ['500 that turns the subscription off', ending('500', 'disabled'), retrying(1000)],
  ['no answer, schedule left', ending('no answer', 'no change', { attempt: 2 }), retrying(60_000)],
  ['no answer that opens the breaker', ending('no answer', 'breaker opened', { attempt: 2 }), { ...heldWithSubscription, holdAll: true }],
  ['410 Gone', ending('410 Gone', 'disabled'), { ...nothing, next: { status: 'failed', reason: 'gone' } }],
  ['410 Gone while the breaker is open', ending('410 Gone', 'breaker already open'), { ...nothing, next: { status: 'failed', reason: 'gone' } }],
  ['429 with Retry-After: no sooner than asked, and the subscription paused', ending('429 Retry-After 4 s', 'no change'), { ...retrying(4000), pauseUntil: at(4000) }],
  ['429 with Retry-After that opens the breaker', ending('429 Retry-After 4 s', 'breaker opened'), { ...heldWithSubscription, holdAll: true, pauseUntil: at(4000) }],
  ['429 with Retry-After, the schedule’s last', ending('429 Retry-After 4 s', 'no change', { attempt: 3 }), { ...nothing, next: { status: 'failed', reason: 'schedule-exhausted' }, pauseUntil: at(4000) }],
  ['503 with a Retry-After of days: bounded at a day', ending('503 Retry-After of days', 'no change'), { ...retrying(DAY), pauseUntil: at(DAY) }],
  ['500, manual: one attempt', ending('500', 'no change', { manual: true }), { ...nothing, next: { status: 'failed', reason: 'schedule-exhausted' } }],
  ['500, manual, while the breaker is open: not held', ending('500', 'breaker already open', { manual: true }), { ...nothing, next: { status: 'failed', reason: 'schedule-exhausted' } }],
  ['429 with Retry-After, manual: ended, the subscription paused', ending('429 Retry-After 4 s', 'no change', { manual: true }), { ...nothing, next: { status: 'failed', reason: 'schedule-exhausted' }, pauseUntil: at(4000) }],
];

describe('concludeAttempt', () => {
  it.each(rows)('%s', (_, e, conclusion) => {
    expect(concludeAttempt(e, NOW, 0.5)).toEqual(conclusion);
  });

  it.each(rows)('%s, ordered: the page’s turn passes exactly when the delivery ended', (_, e, conclusion) => {
    const ended = conclusion.next.status !== 'pending';
    expect(concludeAttempt({ ...e, ordered: true }, NOW, 0.5)).toEqual({ ...conclusion, passTurn: ended });
  });

  it('covers every answer kind and every health state in the table', () => {
    const seen = (pick: (e: AttemptEnding) => unknown) => new Set(rows.map(([, e]) => JSON.stringify(pick(e))));
    expect(seen((e) => e.answer).size).toBe(Object.keys(answers).length);
    expect(seen((e) => e.health).size).toBe(Object.keys(health).length);
  });

  it('jitters a retry within ±20 % of the schedule’s delay, never sooner than a Retry-After', () => {
    expect(concludeAttempt(ending('500', 'no change'), NOW, 0).retryAt).toEqual(at(800));
    expect(concludeAttempt(ending('500', 'no change'), NOW, 0.999999).retryAt).toEqual(at(1200));
    expect(concludeAttempt(ending('429 Retry-After 4 s', 'no change'), NOW, 0).retryAt).toEqual(at(4000));
  });
});
