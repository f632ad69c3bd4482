import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryClaim } from '../../../application/webhook/delivery/delivery-job';
import { SubscriptionPace } from '../../../application/webhook/delivery/subscription-pace.port';
import { sqlQuery } from '../connection/sql-statement';

/**
 * The receiver's pace in PostgreSQL: the subscription's rate slots and Retry-After hold (its
 * `send_not_before`, where every worker takes turns), and attempts put off to a slot.
 */
@Injectable()
export class SqlSubscriptionPace extends SubscriptionPace {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async takeRateSlot(subscriptionId: string, ratePerSecond: number, now: Date): Promise<Date> {
    // The subscription's row is the one place every worker takes turns on: the slot is the later of
    // now and the next free one, and the next free one moves on by 1/rate.
    const { rows } = await sqlQuery<{ slot: Date }>(
      this.orm.em,
      `UPDATE webhook_subscriptions SET send_not_before = greatest(send_not_before, $2) + make_interval(secs => 1.0 / $3)
       WHERE id = $1 RETURNING send_not_before - make_interval(secs => 1.0 / $3) AS slot`,
      [subscriptionId, now, ratePerSecond],
    );
    return rows.length === 0 ? now : new Date(rows[0].slot);
  }

  async putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void> {
    await sqlQuery(
      this.orm.em,
      `UPDATE webhook_deliveries SET next_attempt_at = $3, paced_slot_at = $4, locked_until = NULL, enqueued_at = $5, updated_at = $5
       WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'sending')`,
      [claim.deliveryId, claim.attempt - 1, until, slotTaken ? until : null, at],
    );
  }

  async holdSubscription(subscriptionId: string, until: Date): Promise<void> {
    await sqlQuery(this.orm.em, 'UPDATE webhook_subscriptions SET send_not_before = greatest(send_not_before, $2) WHERE id = $1', [subscriptionId, until]);
  }
}
