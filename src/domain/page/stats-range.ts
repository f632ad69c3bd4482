import { InvalidValueError } from '../shared/domain-error';

export const STATS_INTERVALS = ['day', 'hour'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Length of one bucket. */
export const INTERVAL_MS: Record<StatsInterval, number> = { day: DAY_MS, hour: HOUR_MS };
/** The longest range per interval: 90 days by day (90 buckets), 7 days by hour (168). */
export const MAX_SPAN_MS: Record<StatsInterval, number> = { day: 90 * DAY_MS, hour: 7 * DAY_MS };
/** The range when `from` is not given: the last 30 days by day, the last 24 hours by hour. */
export const DEFAULT_SPAN_MS: Record<StatsInterval, number> = { day: 30 * DAY_MS, hour: DAY_MS };

/** A range of whole UTC buckets, `from` inclusive and `to` exclusive. */
export interface StatsRange {
  from: Date;
  to: Date;
  interval: StatsInterval;
}

const floorTo = (time: number, unit: number) => Math.floor(time / unit) * unit;
const ceilTo = (time: number, unit: number) => Math.ceil(time / unit) * unit;

/**
 * The buckets a statistics request covers. Times are UTC. `from` is moved back to the start of
 * its bucket and `to` (exclusive) forward to the end of its bucket, so every bucket is whole. `to`
 * defaults to the end of the current bucket (the current day or hour counts, as far as it has
 * gone), `from` to DEFAULT_SPAN_MS before `to`. Throws InvalidValueError naming `to` when the
 * range is empty and `from` when it is longer than MAX_SPAN_MS.
 */
export function statsRange(input: { from?: Date; to?: Date; interval?: StatsInterval }, now: Date): StatsRange {
  const interval = input.interval ?? 'day';
  const unit = INTERVAL_MS[interval];
  const to = input.to ? ceilTo(input.to.getTime(), unit) : floorTo(now.getTime(), unit) + unit;
  const from = input.from ? floorTo(input.from.getTime(), unit) : to - DEFAULT_SPAN_MS[interval];
  if (input.from && input.to && input.to.getTime() <= input.from.getTime()) throw new InvalidValueError('to', 'must be later than from');
  if (to <= from) throw new InvalidValueError('to', 'must be later than from');
  if (to - from > MAX_SPAN_MS[interval]) {
    throw new InvalidValueError('from', `the range may span at most ${interval === 'day' ? '90 days at interval=day' : '7 days at interval=hour'} (whole UTC ${interval}s)`);
  }
  return { from: new Date(from), to: new Date(to), interval };
}

/** The start of every bucket of the range, in order. */
export function bucketStarts(range: StatsRange): Date[] {
  const unit = INTERVAL_MS[range.interval];
  const starts: Date[] = [];
  for (let t = range.from.getTime(); t < range.to.getTime(); t += unit) starts.push(new Date(t));
  return starts;
}
