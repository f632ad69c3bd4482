/** One attempt in a subscription's delivery log (an extension of the spec). */
export interface DeliveryAttemptView {
  id: string;
  deliveryId: string;
  /** `manual` for an attempt a customer asked for (redeliver, recover, test). */
  trigger: 'scheduled' | 'manual';
  /** The delivery a manual attempt sent again; null otherwise. */
  redeliveryOf: string | null;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** An attempt as the log keeps it: its times are times. */
export type DeliveryAttemptRecord = Omit<DeliveryAttemptView, 'nextAttemptAt' | 'createdAt'> & { nextAttemptAt: Date | null; createdAt: Date };

export function toDeliveryAttemptView(attempt: DeliveryAttemptRecord): DeliveryAttemptView {
  return { ...attempt, nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null, createdAt: attempt.createdAt.toISOString() };
}
