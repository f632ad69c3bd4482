import { Injectable } from '@nestjs/common';

/**
 * The breakers this worker process opened, by subscription, and when. A first attempt the relay
 * made ready before that moment is claimed instead of sent unclaimed (the claim finds it held).
 * The relay's window (DIRECT_WINDOW_MS) allows such an attempt to be sent; but a burst's ready
 * first attempts then went on to the failing receiver for up to 2 s after its breaker opened,
 * holding its endpoint's slots and the worker's jobs while other tenants' attempts waited behind
 * them (decisions.md 165). Other worker processes learn it from their own claims, as before.
 * Bounded: forgotten past 10,000 subscriptions (they are then claimed or sent as before).
 */
@Injectable()
export class BreakersSeenOpen {
  private readonly openedAt = new Map<string, number>();

  opened(subscriptionId: string, at: Date): void {
    if (this.openedAt.size >= 10_000) this.openedAt.clear();
    this.openedAt.set(subscriptionId, at.getTime());
  }

  /** Whether this process opened the subscription's breaker at or after `readAt` (ms). */
  openedSince(subscriptionId: string, readAt: number): boolean {
    const at = this.openedAt.get(subscriptionId);
    return at !== undefined && at >= readAt;
  }
}
