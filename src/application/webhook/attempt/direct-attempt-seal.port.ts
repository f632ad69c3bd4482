import { DueAttempt } from '../delivery/delivery-job';

/**
 * A MAC on a first attempt the relay made ready to send without a claim (DirectFirstAttempt),
 * made with a key Redis does not hold: the queue carries the event's body and the subscription it
 * goes to, and a job written straight into Redis must not be sent, signed with a tenant's real
 * secrets, from what it says (decisions.md 180). An attempt whose seal does not hold is claimed
 * from PostgreSQL like any other, so a forged one sends only what PostgreSQL says is due.
 */
export abstract class DirectAttemptSeal {
  /** The seal of `due`'s direct part, for the tenant the job names. */
  abstract seal(tenantId: string, due: DueAttempt): string;
  /** Whether `due` carries a direct part sealed for that tenant, delivery, attempt and content. */
  abstract holds(tenantId: string, due: DueAttempt): boolean;
}
