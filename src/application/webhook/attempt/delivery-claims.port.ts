import { NextStep } from '../../../domain/webhook/retry-policy';
import { AttemptResult, AttemptToSend, DeliveryClaim } from './delivery-claim';

/** Attempts of deliveries (the deliveries table is the truth of what is owed to whom): taken, recorded, or ended unsent. */
export abstract class DeliveryClaims {
  /**
   * Takes attempt `attempt` of the delivery for `lockMs`; null when it is not this attempt's
   * turn (already done, taken by a live worker, cancelled). A crashed worker's claim expires.
   */
  abstract claim(delivery: { deliveryId: string; eventId?: string }, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null>;
  /**
   * Writes the attempt to the log and the delivery's next state in one transaction. A success to
   * an endpoint that was healthy when claimed is noted as its last success there too (within a
   * second: the row is written at most once a second by successes).
   */
  abstract record(claim: AttemptToSend, result: AttemptResult, next: NextStep, at: Date): Promise<void>;
  /**
   * Ends a delivery without sending it: `cancelled` when its subscription was deactivated or
   * deleted (or a manual one's deleted), `failed` when the platform turned the subscription off
   * for failing (so `recover` brings it back once the receiver is fixed).
   */
  abstract cancel(claim: DeliveryClaim, at: Date, status?: 'cancelled' | 'failed'): Promise<void>;
  /**
   * False from a claim or record that failed (the database cut, say) until one succeeds. A first
   * attempt is sent without a claim only while records are being written: sent during a cut, its
   * record would fail and the sweeper would send it again (a duplicate for every such attempt),
   * where a claim fails before anything is sent.
   */
  abstract recording(): boolean;
}
