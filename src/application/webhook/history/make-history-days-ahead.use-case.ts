import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { HistoryDays } from './history-days.port';
import { DAYS_MADE_AHEAD } from './roll-history-days.use-case';

const DAY_MS = 86_400_000;

/**
 * Makes the history's days ahead of the clock, for every process that writes events (the API, the
 * CLI, the worker): a write that records an event needs its day, and no process may count on
 * another being there to make it. Says how many whole days ahead are made now (null: none yet).
 */
@Injectable()
export class MakeHistoryDaysAhead {
  constructor(
    private readonly days: HistoryDays,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ made: string[]; daysAhead: number | null }> {
    const now = this.clock.now().getTime();
    const made = await this.days.makeUntil(new Date(now + DAYS_MADE_AHEAD * DAY_MS));
    return { made, daysAhead: await daysAheadOf(this.days, now) };
  }
}

/** Whole days from `now` to the end of the last day made of every webhook history table; null when none is made. */
export async function daysAheadOf(days: HistoryDays, now: number): Promise<number | null> {
  const through = await days.madeThrough();
  return through === null ? null : Math.max(0, Math.floor((through.getTime() - now) / DAY_MS));
}
