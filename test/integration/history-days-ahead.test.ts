import { daysAheadOf, MakeHistoryDaysAhead } from '../../src/application/webhook/history/make-history-days-ahead.use-case';
import { DAY_MS } from '../../src/infrastructure/persistence/history/history-tables';
import { SqlHistoryDays } from '../../src/infrastructure/persistence/history/sql-history-days';
import { openTestOrm } from '../support/database';
import { FixedClock } from '../support/fakes/fixed-clock';
import { isolatedDatabase } from '../support/isolated-database';

// Issue 70: every process that writes events makes the days they go to (the API and the CLI as
// well as the worker), and says how many days ahead are made.
describe('history days made ahead by any writer', () => {
  it('makes the 14 days ahead of its clock, and counts the whole days made', async () => {
    const db = await isolatedDatabase();
    const orm = await openTestOrm(db.url);
    try {
      const days = new SqlHistoryDays(orm);
      // Twenty days on, with no worker meanwhile: the days made at migration have run out.
      const later = new FixedClock(new Date(Date.now() + 20 * DAY_MS));
      expect(await daysAheadOf(days, later.now().getTime())).toBe(0);
      const first = await new MakeHistoryDaysAhead(days, later).execute();
      expect(first.daysAhead).toBe(14);
      expect(first.made.filter((day) => day.startsWith('outbox_events ')).length).toBeGreaterThanOrEqual(20);
      // Made once: a second run makes nothing and says the same.
      expect(await new MakeHistoryDaysAhead(days, later).execute()).toEqual({ made: [], daysAhead: 14 });
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
});
