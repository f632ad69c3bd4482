import { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';
import { Injectable, Optional } from '@nestjs/common';
import { AttemptResult, AttemptToSend, DeliveryClaim } from '../../../application/webhook/attempt/delivery-claim';
import { DeliveryClaims } from '../../../application/webhook/attempt/delivery-claims.port';
import { newTypeId } from '../../../domain/shared/type-id';
import type { NextStep } from '../../../domain/webhook/retry-policy';
import { DecryptedSecrets } from '../../crypto/decrypted-secrets';
import { GroupWriter } from '../connection/group-writer';
import { RecordSession } from '../connection/record-session';
import { DayRecords } from './day-records';
import { AttemptRecord, ClaimRequest, ClaimRow } from './delivery-attempts.sql';
import { byDeliveryId, claimAttempts, claimOf } from './attempt-claims';



// Its event's day holds the delivery: by id alone only for a job made before history was kept by day.
const EVENT_OF = typedStatement<{ deliveryId: string }>()((arg) => schema.selectFrom('webhook_deliveries').select('event_id').where('id', '=', arg('deliveryId')));
const CANCEL = typedStatement<{ at: Date; deliveryId: string; eventId: string; status: 'cancelled' | 'failed' }>()((arg) =>
  schema
    .updateTable('webhook_deliveries')
    .set({ status: arg('status'), locked_until: null, next_attempt_at: null, updated_at: arg('at'), finished_at: arg('at') })
    .where('id', '=', arg('deliveryId'))
    .where('event_id', '=', arg('eventId'))
    .where('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]),
);
/**
 * Claims and records of attempts in PostgreSQL. Workers have no request context, so every call
 * works on its own EntityManager fork. A claim is a conditional UPDATE on (status, attempt_count):
 * whichever job runs a given attempt first takes it, any duplicate finds nothing to take.
 */
@Injectable()
export class SqlDeliveryClaims extends DeliveryClaims {
  /** Where each group of records is written (through the record session when there is one). */
  private readonly dayRecords: DayRecords;

  constructor(
    private readonly orm: MikroORM,
    private readonly secrets: DecryptedSecrets,
    /** The worker's record session, when it has one (DayRecords); else records go through the pool. */
    @Optional() session?: RecordSession,
  ) {
    super();
    this.dayRecords = new DayRecords(session ?? null, orm);
  }

  async claim(delivery: { deliveryId: string; eventId?: string }, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null> {
    const { deliveryId } = delivery;
    const eventId = delivery.eventId ?? (await this.eventOf(deliveryId));
    if (eventId === null) return null;
    const row = await this.claims.add({ deliveryId, eventId, attempt, now, lockedUntil: new Date(now.getTime() + lockMs) });
    return row ? claimOf(row, attempt, this.secrets) : null;
  }

  /**
   * A job made before history was kept by day carries no event id: its delivery is looked up in
   * every day once, by id (docs/decisions.md 147). Null when there is no such delivery.
   */
  private async eventOf(deliveryId: string): Promise<string | null> {
    const [row] = await EVENT_OF.rows(this.orm.em, { deliveryId });
    return row?.event_id ?? null;
  }

  /**
   * Claims go in groups too (GroupWriter), for the same reason as the records below: each was a
   * round trip, a statement and a commit of its own, and the drain's worker spent a quarter of
   * its profile writing to PostgreSQL and waking its backends. One group in flight at a time
   * (claims and records alike): the next one gathers while it runs. With two, groups were half
   * as large (2.3 attempts a statement in the drain) and PostgreSQL paid a statement's fixed cost
   * for each; one drain each on the same data set: 2,762 → 3,006 deliveries/s, CPU 538 → 484 µs
   * a delivery (docs/performance-analysis.md).
   */
  private readonly claims = new GroupWriter<ClaimRequest, ClaimRow | null>((items) => this.watched(this.claimAll(items)), { maxInFlight: 1, maxBatch: 200 });

  /** Whether the last claim or record statement succeeded (DeliveryClaims.recording). */
  private lastWriteOk = true;

  recording(): boolean {
    return this.lastWriteOk;
  }

  private async watched<T>(write: Promise<T>): Promise<T> {
    try {
      const result = await write;
      this.lastWriteOk = true;
      return result;
    } catch (error) {
      this.lastWriteOk = false;
      throw error;
    }
  }

  private claimAll(items: ClaimRequest[]): Promise<(ClaimRow | null)[]> {
    return claimAttempts(this.orm.em, items);
  }

  async record(claim: AttemptToSend, result: AttemptResult, next: NextStep, at: Date): Promise<void> {
    await this.records.add({
      id: newTypeId('whatt', at.getTime()),
      tenantId: claim.tenantId,
      deliveryId: claim.deliveryId,
      subscriptionId: claim.subscription.id,
      eventId: claim.eventId,
      eventType: claim.eventType,
      attempt: claim.attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      nextAttemptAt: next.status === 'pending' ? next.nextAttemptAt : null,
      trigger: claim.manual ? 'manual' : 'scheduled',
      redeliveryOf: claim.manual?.redeliveryOf ?? null,
      at,
      status: next.status,
      finishedAt: next.status === 'pending' ? null : at,
      sentAt: result.sentAt ?? null,
      responseExcerpt: result.responseExcerpt ?? null,
    });
  }

  /**
   * Attempts' records go in groups (GroupWriter): those that finish while a record is being
   * written share the next statement and its one durable commit. Each attempt's commit waited for
   * its own flush of the WAL, and the drain's sessions were mostly waiting on those flushes
   * (IO:WALSync, LWLock:WALWrite). The statement applies each row as the single-row one did: the
   * attempt's log row (once per attempt number) and the delivery's next state, only if the
   * delivery is still at the attempt before this one. Rows go in delivery id order, so two groups
   * in flight lock their rows in one order (RECORD_ATTEMPTS_SQL).
   */
  private readonly records = new GroupWriter<AttemptRecord>((rows) => this.watched(this.recordAll(rows)), { maxInFlight: 1, maxBatch: 200 });

  private async recordAll(rows: AttemptRecord[]): Promise<void> {
    await this.dayRecords.write([...rows].sort(byDeliveryId));
  }

  async cancel(claim: DeliveryClaim, at: Date, status: 'cancelled' | 'failed' = 'cancelled'): Promise<void> {
    await CANCEL.count(this.orm.em, { at, deliveryId: claim.deliveryId, eventId: claim.eventId, status });
  }
}
