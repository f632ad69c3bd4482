import type { Logger } from '../../application/shared/logger.port';
import { PurgeOldDeliveries } from '../../application/webhook/delivery/purge-old-deliveries.use-case';
import { SweepDeliveries } from '../../application/webhook/delivery/sweep-deliveries.use-case';
import { WakeHeldDeliveries } from '../../application/webhook/delivery/wake-held-deliveries.use-case';
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

/** History past its retention deleted in small batches, each a short statement. */
export function retentionLoop(purge: PurgeOldDeliveries, logger: Logger, intervalMs: number): IntervalLoop {
  return new IntervalLoop(
    'purged webhook history past its retention',
    async () => {
      const purged = await purge.execute({ batch: 1000, maxBatches: 50 });
      return purged.deliveries + purged.events > 0 ? purged : null;
    },
    logger,
    intervalMs,
  );
}
