import { DeliveryJob } from '../delivery/delivery-job';

/** Deliveries that are due but have no live job: the sweeper's. */
export abstract class StrandedDeliveries {
  /**
   * Deliveries whose attempt should have run at least `graceMs` ago (and whose lease, if any, has
   * run out) and that were not re-enqueued within `graceMs`: their job was lost (queue data
   * lost, a worker killed, a failure inside the attempt). Marks them re-enqueued now, so the
   * next sweep leaves them to the job it makes. Oldest first; empty when none. A scheduled
   * delivery never attempted waits `firstGraceMs` instead: its first attempt may be on its way
   * without a lease (DirectFirstAttempt). With `queuedBefore`, only deliveries handed to the queue
   * before it (a first attempt when it was made): one handed to it since may still have its job
   * waiting there (DeliveryQueue.waitingSince).
   */
  abstract findStranded(now: Date, limit: number, graceMs: number, firstGraceMs?: number, queuedBefore?: Date): Promise<DeliveryJob[]>;
}
