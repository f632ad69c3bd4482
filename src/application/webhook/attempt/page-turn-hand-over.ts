import { Injectable } from '@nestjs/common';
import { AttemptToSend } from './delivery-claim';
import { FollowOn } from './attempt-input';
import { DeliveryQueue } from '../delivery/delivery-queue.port';
import { DeliveryTurns } from '../delivery/delivery-turns.port';
import { WebhookSettings } from '../delivery/webhook-settings.port';

/**
 * An ordered delivery has ended: its page's next one gets the turn. When the worker keeps the
 * ended attempt's slot for it, the pass also claims it and it starts from there (no queue job and
 * no claim of its own between two versions of a page); else its job is enqueued. If this fails
 * (the database cut) the turn stays with nobody; the sweeper passes it on
 * (DeliveryTurns.passStalled).
 */
@Injectable()
export class PageTurnHandOver {
  constructor(
    private readonly turns: DeliveryTurns,
    private readonly queue: DeliveryQueue,
    private readonly settings: WebhookSettings,
  ) {}

  async pass(ended: AttemptToSend, now: Date, followOn?: FollowOn): Promise<void> {
    if (ended.orderKey === null) return;
    const turn = { tenantId: ended.tenantId, subscriptionId: ended.subscription.id, orderKey: ended.orderKey };
    const slot = followOn?.reserve() ?? null;
    if (!slot) {
      const next = await this.turns.passOn(turn, now);
      if (next) await this.queue.enqueue([next]);
      return;
    }
    const passed = await this.turns.passOnClaiming(turn, now, this.settings.attemptLockMs).catch((error: unknown) => {
      slot.cancel();
      throw error;
    });
    if (passed?.claim) return slot.start(passed.job, passed.claim);
    slot.cancel();
    // Passed but taken by another first (a duplicate job): this job finds nothing, as any duplicate.
    if (passed) await this.queue.enqueue([passed.job]);
  }
}
