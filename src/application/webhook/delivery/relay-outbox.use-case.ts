import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { DeliveryQueue } from './delivery-queue.port';
import { OutboxRelayStore } from './outbox-relay-store.port';

/**
 * Moves committed events to deliveries (in PostgreSQL, one transaction), takes the deliveries
 * customers asked for, and then wakes workers.
 * The deliveries exist before any job does, so a queue failure here loses nothing.
 */
@Injectable()
export class RelayOutbox {
  constructor(
    private readonly relay: OutboxRelayStore,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  /**
   * `from`: the lowest event id the round need read (null: all of the outbox). `through`: the
   * last event it published, where the next round may read from when `more`.
   */
  async execute(input: { limit: number; from?: string | null }): Promise<{ events: number; deliveries: number; enqueued: boolean; more: boolean; through?: string }> {
    const now = this.clock.now();
    const fanned = await this.relay.fanOut(input.limit, now, input.from ?? null);
    // Deliveries customers asked for wait on the same wake-up (the API commits them and notifies).
    const requested = await this.relay.takeRequested(input.limit, now);
    const { events, through } = fanned;
    const deliveries = [...fanned.deliveries, ...requested];
    const more = fanned.more || requested.length === input.limit;
    if (deliveries.length === 0) return { events, deliveries: 0, enqueued: true, more, through };
    try {
      await this.queue.enqueue(deliveries);
      return { events, deliveries: deliveries.length, enqueued: true, more, through };
    } catch {
      return { events, deliveries: deliveries.length, enqueued: false, more, through };
    }
  }
}
