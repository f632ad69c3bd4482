import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryClaim } from '../../../application/webhook/attempt/delivery-claim';
import { PutOffAttempts } from '../../../application/webhook/attempt/put-off-attempts.port';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

// The delivery waits for its time, still at the attempt the claim took (a later claim moved it on otherwise).
const PUT_OFF = typedStatement<{ deliveryId: string; attemptCount: number; until: Date; slotAt: Date | null; at: Date }>()((arg) =>
  schema
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: arg('until'), paced_slot_at: arg('slotAt'), locked_until: null, enqueued_at: arg('at'), updated_at: arg('at') })
    .where('id', '=', arg('deliveryId'))
    .where('attempt_count', '=', arg('attemptCount'))
    .where('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
);

/** Attempts put off to a rate slot or past a Retry-After, in PostgreSQL: the delivery waits for its time. */
@Injectable()
export class SqlPutOffAttempts extends PutOffAttempts {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void> {
    await PUT_OFF.count(this.orm.em, { deliveryId: claim.deliveryId, attemptCount: claim.attempt - 1, until, slotAt: slotTaken ? until : null, at });
  }
}
