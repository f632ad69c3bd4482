import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { OutboxRelay } from './outbox-relay';

/**
 * Moves committed events to deliveries (in PostgreSQL, one transaction: PlannedOutboxRelay),
 * takes the deliveries customers asked for, and then wakes workers.
 * The deliveries exist before any job does, so a queue failure here loses nothing.
 */
@Injectable()
export class RelayOutbox {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  /**
   * `from`: the lowest event id the round need read (null: all of the outbox). `through`: the
   * last event it published, where the next round may read from when `more`.
   * The fan-out's jobs are enqueued before the requested deliveries are looked for: a round's
   * events then wait one round trip fewer for their jobs (the look finds nothing in most rounds).
   */
  async execute(input: { limit: number; from?: string | null }): Promise<{ events: number; deliveries: number; enqueued: boolean; more: boolean; through?: string }> {
    const now = this.clock.now();
    const fanned = await this.relay.fanOut(input.limit, now, input.from ?? null);
    let enqueued = await this.enqueue(fanned.deliveries);
    // Deliveries customers asked for wait on the same wake-up (the API commits them and notifies).
    const requested = await this.relay.takeRequested(input.limit, now);
    enqueued = (await this.enqueue(requested)) && enqueued;
    const { events, through } = fanned;
    const more = fanned.more || requested.length === input.limit;
    return { events, deliveries: fanned.deliveries.length + requested.length, enqueued, more, through };
  }

  /** False when the queue refused them: they wait for the sweeper, as written deliveries do. */
  private async enqueue(deliveries: DeliveryJob[]): Promise<boolean> {
    return deliveries.length === 0 || this.queue.enqueue(deliveries).then(() => true, () => false);
  }
}
