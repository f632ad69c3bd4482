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
    // Deliveries customers asked for wait on the same wake-up (the API commits them and notifies).
    // Taken beside the fan-out, on another connection: one round trip less in every round, which
    // behind a busy worker is one turn of its event loop less before a fresh event's job is added.
    const [fannedOut, taken] = await Promise.allSettled([this.relay.fanOut(input.limit, now, input.from ?? null), this.relay.takeRequested(input.limit, now)]);
    const fanned = fannedOut.status === 'fulfilled' ? fannedOut.value : { events: 0, deliveries: [], more: false, through: undefined };
    const requested = taken.status === 'fulfilled' ? taken.value : [];
    const { events, through } = fanned;
    const deliveries = [...fanned.deliveries, ...requested];
    const more = fanned.more || requested.length === input.limit;
    let enqueued = true;
    if (deliveries.length > 0) enqueued = await this.queue.enqueue(deliveries).then(() => true, () => false);
    // What one half committed is enqueued before the other half's failure is told: each half's
    // deliveries are marked handed over when it commits, and would otherwise wait for the sweeper.
    const failed = [fannedOut, taken].find((half) => half.status === 'rejected');
    if (failed) throw failed.reason;
    return { events, deliveries: deliveries.length, enqueued, more, through };
  }
}
