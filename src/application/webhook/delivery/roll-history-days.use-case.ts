import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { HistoryDays } from './history-days.port';
import { RetentionSettings } from './retention-settings.port';

const DAY_MS = 86_400_000;

/** Days of history made ahead of the clock: a write never waits for this upkeep, even if it stops for days. */
export const DAYS_MADE_AHEAD = 14;

/**
 * The history's upkeep: makes the days ahead, and drops the days past their retention as whole
 * partitions (no row is deleted one by one, nothing is left to vacuum). A day of webhook history
 * still holding an unfinished delivery is kept until that delivery ends.
 */
@Injectable()
export class RollHistoryDays {
  constructor(
    private readonly days: HistoryDays,
    private readonly settings: RetentionSettings,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ made: string[]; statements: string[]; kept: string[] }> {
    const now = this.clock.now().getTime();
    const made = await this.days.makeUntil(new Date(now + DAYS_MADE_AHEAD * DAY_MS));
    const webhooks = await this.days.dropWebhookDaysBefore(new Date(now - this.settings.retentionDays * DAY_MS));
    const sessions = this.settings.sessionRetentionDays === null ? [] : await this.days.dropSessionDaysBefore(new Date(now - this.settings.sessionRetentionDays * DAY_MS));
    return { made, statements: [...webhooks.statements, ...sessions], kept: webhooks.kept };
  }
}
