import { bucketStarts, statsRange } from '../../../../src/domain/page/stats-range';

const NOW = new Date('2026-11-25T10:17:00.000Z');
const at = (iso: string) => new Date(iso);

describe('statsRange', () => {
  it('widens the range to whole UTC buckets, to exclusive', () => {
    expect(statsRange({ from: at('2026-11-01T05:00:00Z'), to: at('2026-11-03T00:00:01Z') }, NOW)).toEqual({ from: at('2026-11-01T00:00:00Z'), to: at('2026-11-04T00:00:00Z'), interval: 'day' });
    expect(statsRange({ from: at('2026-11-01T05:59:00Z'), to: at('2026-11-01T07:00:00Z'), interval: 'hour' }, NOW)).toEqual({ from: at('2026-11-01T05:00:00Z'), to: at('2026-11-01T07:00:00Z'), interval: 'hour' });
  });

  it('defaults to the last 30 days or 24 hours, the current bucket included', () => {
    expect(statsRange({}, NOW)).toEqual({ from: at('2026-10-27T00:00:00Z'), to: at('2026-11-26T00:00:00Z'), interval: 'day' });
    expect(statsRange({ interval: 'hour' }, NOW)).toEqual({ from: at('2026-11-24T11:00:00Z'), to: at('2026-11-25T11:00:00Z'), interval: 'hour' });
  });

  it('allows exactly 90 days by day and 7 days by hour, and names the field past them or for an empty range', () => {
    expect(statsRange({ from: at('2026-01-01'), to: at('2026-04-01') }, NOW).to).toEqual(at('2026-04-01'));
    expect(() => statsRange({ from: at('2026-01-01'), to: at('2026-04-01T00:00:01Z') }, NOW)).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'from' }) }));
    expect(() => statsRange({ from: at('2026-11-01'), to: at('2026-11-08T00:00:01Z'), interval: 'hour' }, NOW)).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'from' }) }));
    expect(() => statsRange({ from: at('2026-11-02'), to: at('2026-11-02') }, NOW)).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'to' }) }));
  });
});

describe('bucketStarts', () => {
  it('lists the start of every bucket of the range, in order', () => {
    const range = statsRange({ from: at('2026-11-01T22:00:00Z'), to: at('2026-11-04T03:00:00Z'), interval: 'hour' }, NOW);
    const starts = bucketStarts(range);
    expect(starts).toHaveLength(53);
    expect([starts[0], starts[2], starts[52]]).toEqual([at('2026-11-01T22:00:00Z'), at('2026-11-02T00:00:00Z'), at('2026-11-04T02:00:00Z')]);
    expect(bucketStarts(statsRange({ from: at('2026-11-01'), to: at('2026-11-03') }, NOW))).toEqual([at('2026-11-01'), at('2026-11-02')]);
  });
});
