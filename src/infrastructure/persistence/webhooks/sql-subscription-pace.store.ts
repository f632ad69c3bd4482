import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryClaim } from '../../../application/webhook/delivery/delivery-job';
import { SubscriptionPace } from '../../../application/webhook/delivery/subscription-pace.port';
import { sqlQuery } from '../connection/sql-statement';

/** Attempts put off to a rate slot or past a Retry-After, in PostgreSQL: the delivery waits for its time. */
@Injectable()
export class SqlSubscriptionPace extends SubscriptionPace {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void> {
    await sqlQuery(
      this.orm.em,
      `UPDATE webhook_deliveries SET next_attempt_at = $3, paced_slot_at = $4, locked_until = NULL, enqueued_at = $5, updated_at = $5
       WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'sending')`,
      [claim.deliveryId, claim.attempt - 1, until, slotTaken ? until : null, at],
    );
  }
}
