import { TestDelivery } from '../../../domain/webhook/test-delivery';

/** A delivery made on a customer's request: one attempt, outside any retry schedule. */
export interface ManualDelivery {
  deliveryId: string;
  eventId: string;
  /** The delivery it sends again; null for a test event. */
  redeliveryOf: string | null;
}

/**
 * Deliveries customers ask for (docs/webhooks.md, Operating a subscription). Each is a delivery
 * row of its own, written in the caller's unit of work with what it checks, and handed to a worker
 * after the commit; the sweeper finds it if that hand-over is lost. Every method is given `pendingMax`,
 * the tenant's bound on manual deliveries waiting to be sent (WebhookLimits): the count and the
 * write are one step per tenant, so concurrent requests cannot overshoot it together.
 */
export abstract class DeliveryRequests {
  /**
   * One more attempt of a delivery of the subscription (a redelivery of a redelivery sends its
   * original again). `not-found` when the subscription has no such delivery; `in-flight` while
   * an attempt of it is being made or a redelivery of it waits; `no-room` when `pendingMax` of the
   * tenant's manual deliveries wait already; `{ notReceivable }` (and nothing written) when the
   * delivery's kind is not among `receivable` (null or left out: every kind).
   */
  abstract redeliver(input: {
    tenantId: string;
    subscriptionId: string;
    deliveryId: string;
    now: Date;
    pendingMax: number;
    receivable?: readonly string[] | null;
  }): Promise<ManualDelivery | 'not-found' | 'in-flight' | 'no-room' | { notReceivable: string }>;
  /**
   * Redelivers, oldest first and at most `limit` (and no more than the room left under
   * `pendingMax`), every scheduled delivery of the subscription created since `since` that failed
   * or is still being retried, unless a redelivery of it is waiting or has succeeded; only those
   * of a kind among `receivable` (null or left out: every kind). `hasMore` when some were left
   * for a later call.
   */
  abstract recover(input: {
    tenantId: string;
    subscriptionId: string;
    since: Date;
    now: Date;
    limit: number;
    pendingMax: number;
    receivable?: readonly string[] | null;
  }): Promise<{ queued: number; hasMore: boolean }>;
  /**
   * Writes the test delivery and its event (to the log as already relayed); `no-room` (and
   * nothing written) when `pendingMax` of the tenant's manual deliveries wait.
   */
  abstract addTest(delivery: TestDelivery, pendingMax: number): Promise<'added' | 'no-room'>;
}
