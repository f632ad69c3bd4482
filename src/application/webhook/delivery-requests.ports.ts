import { DomainEvent } from '../../domain/shared/domain-event';

/** A delivery made on a customer's request: one attempt, outside any retry schedule. */
export interface ManualDelivery {
  deliveryId: string;
  eventId: string;
  /** The delivery it sends again; null for a test event. */
  redeliveryOf: string | null;
}

/**
 * Deliveries customers ask for (docs/webhooks.md, Operating a subscription). Each is a delivery
 * row of its own, written in one transaction with what it checks, and handed to a worker after
 * the commit; the sweeper finds it if that hand-over is lost.
 */
export abstract class DeliveryRequests {
  /**
   * One more attempt of a delivery of the subscription (a redelivery of a redelivery sends its
   * original again). `not-found` when the subscription has no such delivery; `in-flight` while
   * an attempt of it is being made or a redelivery of it waits.
   */
  abstract redeliver(input: { tenantId: string; subscriptionId: string; deliveryId: string; now: Date }): Promise<ManualDelivery | 'not-found' | 'in-flight'>;
  /**
   * Redelivers, oldest first and at most `limit`, every scheduled delivery of the subscription
   * created since `since` that failed or is still being retried, unless a redelivery of it is
   * waiting or has succeeded.
   */
  abstract recover(input: { tenantId: string; subscriptionId: string; since: Date; now: Date; limit: number }): Promise<{ queued: number; hasMore: boolean }>;
  /** Writes `event` to the log as already relayed, and one delivery of it to the subscription. */
  abstract sendTest(input: { subscriptionId: string; event: DomainEvent; now: Date }): Promise<ManualDelivery>;
}
