import { InvalidValueError } from '../../../../src/domain/shared/domain-error';
import { MAX_RETRY_AFTER_MS, nextStep, outcomeOf } from '../../../../src/domain/webhook/retry-policy';
import { parseRetryAfter, parseRetrySchedule } from '../../../../src/domain/webhook/retry-texts';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';
import { subscriptionBody } from '../../../support/builders/subscriptions';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const base = { tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', ...subscriptionBody('https://hooks.example.com/x') };

describe('WebhookSubscription', () => {
  it('is active by default and wants only its event kinds while active', () => {
    const s = WebhookSubscription.create(base, 'whsec_x', NOW);
    expect(s.id).toMatch(/^whsub_/);
    expect(s.wants({ type: 'page.version.created' })).toBe(true);
    expect(s.wants({ type: 'page.deleted' })).toBe(false);
    s.update({ active: false }, NOW);
    expect(s.wants({ type: 'page.version.created' })).toBe(false);
    s.update({ active: true }, NOW);
    s.delete(NOW);
    expect(s.wants({ type: 'page.version.created' })).toBe(false);
  });

  it.each([
    [{ url: 'ftp://x' }, 'url'],
    [{ events: [] }, 'events'],
    [{ events: ['nope'] }, 'events[0]'],
    [{ events: ['page.version.created', 'page.version.created'] }, 'events[1]'],
  ])('refuses %j naming %s', (input, field) => {
    expect(() => WebhookSubscription.create({ ...base, ...input }, 'whsec_x', NOW)).toThrow(expect.objectContaining({ details: expect.objectContaining({ field }) }));
  });

  it('changes nothing when an update is invalid', () => {
    const s = WebhookSubscription.create(base, 'whsec_x', NOW);
    expect(() => s.update({ url: 'https://ok.example', events: ['x'] }, NOW)).toThrow(InvalidValueError);
    expect(s.url).toBe(base.url);
  });
});

describe('retry policy', () => {
  const schedule = parseRetrySchedule('5s,5m,30m,2h,5h,10h,14h,20h,24h');

  it('parses durations and refuses anything else', () => {
    expect(parseRetrySchedule('100ms, 2s,3m,4h,1d')).toEqual([100, 2000, 180000, 14400000, 86400000]);
    expect(() => parseRetrySchedule('5s,soon')).toThrow(InvalidValueError);
    expect(() => parseRetrySchedule('')).toThrow(InvalidValueError);
  });

  it('spans about three days over ten attempts by default', () => {
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(schedule).toHaveLength(9);
    expect(total / 86_400_000).toBeGreaterThan(3);
    expect(total / 86_400_000).toBeLessThan(3.3);
  });

  it('classifies answers: 2xx delivered, 410 gone, everything else retried', () => {
    expect(outcomeOf(200)).toEqual({ kind: 'delivered' });
    expect(outcomeOf(299)).toEqual({ kind: 'delivered' });
    expect(outcomeOf(410)).toEqual({ kind: 'gone' });
    for (const code of [null, 301, 400, 404, 429, 500, 503]) expect(outcomeOf(code)).toEqual({ kind: 'failed' });
  });

  it('schedules the next attempt with ±20 % jitter, and stops at 410 or the end of the schedule', () => {
    expect(nextStep(1, { kind: 'failed' }, schedule, NOW, 0)).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 4000) });
    expect(nextStep(1, { kind: 'failed' }, schedule, NOW, 0.999999)).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 6000) });
    expect(nextStep(2, { kind: 'failed' }, schedule, NOW, 0.5)).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 300000) });
    expect(nextStep(9, { kind: 'failed' }, schedule, NOW, 0.5).status).toBe('pending');
    expect(nextStep(10, { kind: 'failed' }, schedule, NOW, 0.5)).toEqual({ status: 'failed', reason: 'schedule-exhausted' });
    expect(nextStep(3, { kind: 'gone' }, schedule, NOW, 0.5)).toEqual({ status: 'failed', reason: 'gone' });
    expect(nextStep(3, { kind: 'delivered' }, schedule, NOW, 0.5)).toEqual({ status: 'delivered' });
  });
});

describe('Retry-After', () => {
  const NOW = new Date('2026-11-25T10:00:00.000Z');

  it.each([
    ['4', 4000],
    [' 120 ', 120_000],
    ['0', 0],
    ['Wed, 25 Nov 2026 10:00:30 GMT', 30_000],
    ['Wed, 25 Nov 2026 09:59:00 GMT', 0],
    ['', null],
    ['soon', null],
    ['-5', null],
    ['1.5', null],
    ['2026-11-25T10:00:30Z', null],
    [undefined, null],
  ])('reads %j as %p ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('counts only on 429 and 503, and the next attempt waits for it, up to a day', () => {
    expect(outcomeOf(429, 4000)).toEqual({ kind: 'failed', retryAfterMs: 4000 });
    expect(outcomeOf(503, 4000)).toEqual({ kind: 'failed', retryAfterMs: 4000 });
    expect(outcomeOf(500, 4000)).toEqual({ kind: 'failed' });
    expect(outcomeOf(429, null)).toEqual({ kind: 'failed' });
    const schedule = [1000, 1000];
    expect(nextStep(1, outcomeOf(429, 4000), schedule, NOW, 0.5)).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 4000) });
    // A Retry-After shorter than the schedule leaves the schedule as it is.
    expect(nextStep(1, outcomeOf(429, 10), schedule, NOW, 0.5)).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 1000) });
    expect(nextStep(1, outcomeOf(503, 9 * 86_400_000), schedule, NOW, 0.5)).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + MAX_RETRY_AFTER_MS) });
    // It does not lengthen the schedule: the last attempt is still the last.
    expect(nextStep(3, outcomeOf(429, 4000), schedule, NOW, 0.5)).toEqual({ status: 'failed', reason: 'schedule-exhausted' });
  });
});
