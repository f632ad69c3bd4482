import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { DeliveryQueue, DeliveryStore } from './delivery.ports';

/**
 * Re-enqueues deliveries that are due but may have no job: the queue lost its data, a worker was
 * killed mid-attempt, or enqueueing failed. Job ids are per (delivery, attempt), so a job that
 * still exists is not doubled.
 */
@Injectable()
export class SweepDeliveries {
  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  async execute(input: { limit: number }): Promise<number> {
    const stranded = await this.deliveries.findStranded(this.clock.now(), input.limit);
    if (stranded.length > 0) await this.queue.enqueue(stranded);
    return stranded.length;
  }
}
