import { HealthChange } from '../../../domain/webhook/endpoint-health';

export type DeliveryOutcome = 'skipped' | 'cancelled' | 'put off' | 'held' | 'delivered' | 'failed' | 'retrying';

/** What happened, with the ids a log line of the attempt needs. */
export interface DeliveryAttemptReport {
  outcome: DeliveryOutcome;
  deliveryId: string;
  attempt: number;
  eventId?: string;
  subscriptionId?: string;
  statusCode?: number | null;
  durationMs?: number;
  /**
   * When the request left, for an attempt that was sent: its log line is written after the
   * attempt is recorded, which behind a busy worker's grouped records can be a while later.
   */
  sentAt?: Date;
  error?: string | null;
  /** Set for an attempt a customer asked for. */
  trigger?: 'manual';
  /** The platform turned the subscription off (a 410, or failing for too long). */
  subscriptionDisabled?: boolean;
  /** Put off until then, unsent: the subscription's rate slot, or a manual attempt's Retry-After. */
  putOffUntil?: string;
  /** What the attempt changed in the endpoint's health that the customer is told of. */
  health?: Exclude<HealthChange, null>;
  /** The attempt's trace and span, when it was sent. */
  traceId?: string;
  spanId?: string;
}
