import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { RetentionSettings } from './retention-settings.port';
import { RetentionStore } from './retention-store.port';

/**
 * Deletes what is older than the retention period (WEBHOOK_RETENTION_DAYS): finished deliveries
 * with their attempts, and relayed events no delivery refers to any more. In small batches, each
 * its own short transaction, so it never holds many locks or a long snapshot; at most
 * `maxBatches` per run, the rest next run.
 */
@Injectable()
export class PurgeOldDeliveries {
  constructor(
    private readonly store: RetentionStore,
    private readonly settings: RetentionSettings,
    private readonly clock: Clock,
  ) {}

  async execute(input: { batch: number; maxBatches: number }): Promise<{ deliveries: number; events: number }> {
    const before = new Date(this.clock.now().getTime() - this.settings.retentionDays * 86_400_000);
    let deliveries = 0;
    let events = 0;
    for (let i = 0; i < input.maxBatches; i++) {
      const purged = await this.store.purgeDeliveries(before, input.batch);
      deliveries += purged;
      if (purged < input.batch) break;
    }
    for (let i = 0; i < input.maxBatches; i++) {
      const purged = await this.store.purgeEvents(before, input.batch);
      events += purged;
      if (purged < input.batch) break;
    }
    return { deliveries, events };
  }
}
