import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { DeliveryQueue, OutboxRelayStore } from './delivery.ports';

/**
 * Moves committed events to deliveries (in PostgreSQL, one transaction) and then wakes workers.
 * The deliveries exist before any job does, so a queue failure here loses nothing.
 */
@Injectable()
export class RelayOutbox {
  constructor(
    private readonly relay: OutboxRelayStore,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  async execute(input: { limit: number }): Promise<{ events: number; deliveries: number; enqueued: boolean; more: boolean }> {
    const { events, deliveries, more } = await this.relay.fanOut(input.limit, this.clock.now());
    if (deliveries.length === 0) return { events, deliveries: 0, enqueued: true, more };
    try {
      await this.queue.enqueue(deliveries);
      return { events, deliveries: deliveries.length, enqueued: true, more };
    } catch {
      return { events, deliveries: deliveries.length, enqueued: false, more };
    }
  }
}
