import { DeliveryClaim } from './delivery-claim';
import { DeliveryJob, DueAttempt } from '../delivery/delivery-job';

/**
 * An attempt as its job asks for it, with the job's tenant and endpoint; `requestEnded` is told
 * when its request to the receiver is over (the endpoint's slot, InFlightLimits). `followOn`, when
 * given, lets the attempt hand its slot to the delivery an ordered page's turn passes to, which
 * then starts at once in this worker, already claimed (`claimed`); otherwise its job is enqueued.
 */
export type AttemptInput = DueAttempt & { tenantId: string; endpoint: string; requestEnded?: () => void; followOn?: FollowOn; claimed?: DeliveryClaim };

/** The worker's side of a hand-over: the slot of the attempt that ends, kept for the page's next delivery. */
export interface FollowOn {
  /** Takes the slot for the next delivery; null when the worker will not start it here (it is stopping, or the slot went to a waiter). */
  reserve(): NextSlot | null;
}

/** A slot kept for a page's next delivery: started with its claim, or given back when there is none. */
export interface NextSlot {
  start(next: DeliveryJob, claim: DeliveryClaim): void;
  cancel(): void;
}

/** The job of a delivery's attempt `attempt`, due in `delayMs` (never below 0). */
export function jobOf(claim: Pick<DeliveryClaim, 'deliveryId' | 'eventId' | 'tenantId' | 'endpoint'>, attempt: number, delayMs: number): DeliveryJob {
  return { deliveryId: claim.deliveryId, eventId: claim.eventId, attempt, delayMs: Math.max(0, delayMs), tenantId: claim.tenantId, endpoint: claim.endpoint };
}
