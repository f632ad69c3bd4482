import type { Logger } from '../../application/shared/logger.port';
import { RollHistoryDays } from '../../application/webhook/history/roll-history-days.use-case';
import { MakeHistoryDaysAhead } from '../../application/webhook/history/make-history-days-ahead.use-case';
import { SweepDeliveries } from '../../application/webhook/sweeper/sweep-deliveries.use-case';
import { WakeHeldDeliveries } from '../../application/webhook/held/wake-held-deliveries.use-case';
import { IntervalLoop } from './interval.loop';

/** The worker's upkeep on timers, each a driving adapter of one use case: what a tick does and what it says. */

/** Deliveries due in PostgreSQL with no live job (Redis lost, a worker killed) made jobs again. */
export function sweepLoop(sweeper: SweepDeliveries, logger: Logger, intervalMs: number): IntervalLoop {
  return new IntervalLoop(
    're-enqueued stranded deliveries',
    async () => {
      const deliveries = await sweeper.execute({ limit: 1000 });
      return deliveries > 0 ? { deliveries } : null;
    },
    logger,
    intervalMs,
  );
}

/** Held deliveries (open breakers, Retry-After) woken per subscription, on the sweeper's interval. */
export function wakeLoop(waker: WakeHeldDeliveries, logger: Logger, intervalMs: number): IntervalLoop {
  return new IntervalLoop(
    'woke held deliveries',
    async () => {
      const woken = await waker.execute({ limit: 100 });
      return woken.probes + woken.released > 0 ? woken : null;
    },
    logger,
    intervalMs,
  );
}

/** The history's days made ahead, and those past their retention dropped whole. */
export function historyDaysLoop(days: RollHistoryDays, logger: Logger, intervalMs: number): IntervalLoop {
  return new IntervalLoop(
    'rolled the history days',
    async () => {
      const rolled = await days.execute();
      if (rolled.kept.length > 0) logger.info({ days: rolled.kept }, "kept history days past their retention for the tenants whose deliveries are not finished (or its events' relay)");
      const done = { made: rolled.made.length, statements: rolled.statements.length, otherTenantsRowsDeleted: rolled.cleared ?? 0, deliveriesGivenUp: rolled.givenUp ?? 0 };
      return done.made + done.statements + done.otherTenantsRowsDeleted + done.deliveriesGivenUp > 0 ? done : null;
    },
    logger,
    intervalMs,
  );
}

/** The history's days made ahead by a process that writes events but runs no worker (the API). */
export function historyDaysAheadLoop(days: MakeHistoryDaysAhead, logger: Logger, intervalMs: number): IntervalLoop {
  return new IntervalLoop(
    'made history days ahead',
    async () => {
      const { made } = await days.execute();
      return made.length > 0 ? { made: made.length } : null;
    },
    logger,
    intervalMs,
  );
}
