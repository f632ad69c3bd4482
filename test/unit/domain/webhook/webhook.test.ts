import { InvalidValueError } from '../../../../src/domain/shared/domain-error';
import { nextStep, outcomeOf, parseRetrySchedule } from '../../../../src/domain/webhook/retry-policy';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const base = { tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', url: 'https://hooks.example.com/x', events: ['page.version.created'] };

describe('WebhookSubscription', () => {
  it('is active by default and wants only its event kinds while active', () => {
    const s = WebhookSubscription.create(base, 'whsec_x', NOW);
    expect(s.id).toMatch(/^whsub_/);
    expect(s.wants('page.version.created')).toBe(true);
    expect(s.wants('page.deleted')).toBe(false);
    s.update({ active: false }, NOW);
    expect(s.wants('page.version.created')).toBe(false);
    s.update({ active: true }, NOW);
    s.delete(NOW);
    expect(s.wants('page.version.created')).toBe(false);
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
