import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { HistoryDays } from './history-days.port';
import { RetentionSettings } from './retention-settings.port';

const DAY_MS = 86_400_000;

/** Days of history made ahead of the clock: a write never waits for this upkeep, even if it stops for days. */
export const DAYS_MADE_AHEAD = 14;

/**
 * How long past the retention a tenant's own unfinished deliveries keep its own rows of a day
 * (every other tenant's rows go at the retention), and how long the day then stays after they are
 * given up, for that tenant's delivery log (decisions.md 173).
 */
export const HELD_DAY_GRACE_MS = DAY_MS;
export const GIVEN_UP_NOTICE_MS = DAY_MS;

/**
 * The history's upkeep: makes the days ahead, and drops the days past their retention as whole
 * partitions (no row is deleted one by one, nothing is left to vacuum). A day of webhook history
 * still holding an unfinished delivery is kept for that delivery's tenant alone, for a grace at
 * most; then the delivery is given up.
 */
@Injectable()
export class RollHistoryDays {
  constructor(
    private readonly days: HistoryDays,
    private readonly settings: RetentionSettings,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ made: string[]; statements: string[]; kept: string[]; cleared?: number; givenUp?: number }> {
    const now = this.clock.now().getTime();
    const made = await this.days.makeUntil(new Date(now + DAYS_MADE_AHEAD * DAY_MS));
    const before = now - this.settings.retentionDays * DAY_MS;
    const webhooks = await this.days.dropWebhookDaysBefore(new Date(before), { now: new Date(now), giveUpBefore: new Date(before - HELD_DAY_GRACE_MS), noticeMs: GIVEN_UP_NOTICE_MS });
    const sessions = this.settings.sessionRetentionDays === null ? [] : await this.days.dropSessionDaysBefore(new Date(now - this.settings.sessionRetentionDays * DAY_MS));
    return { made, statements: [...webhooks.statements, ...sessions], kept: webhooks.kept, cleared: webhooks.cleared, givenUp: webhooks.givenUp };
  }
}
