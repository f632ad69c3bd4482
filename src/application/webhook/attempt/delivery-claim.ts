import { DeliveryState } from '../../../domain/webhook/attempt-decision';
import { PreviousSigningSecret } from '../../../domain/webhook/signing-secrets';
import { TraceCarrier } from '../delivery/delivery-job';

/**
 * An attempt about to be sent, with what sending and recording it need: a claimed attempt
 * (DeliveryClaim), or a first attempt the relay made ready (UnclaimedFirstAttempts).
 */
export interface AttemptToSend {
  deliveryId: string;
  attempt: number;
  tenantId: string;
  eventId: string;
  eventType: string;
  /** The exact bytes fixed when the event was written; every attempt sends and signs these. */
  body: string;
  /** The trace of the request that wrote the event; null when it had none (the CLI, older events). */
  trace: TraceCarrier | null;
  subscription: {
    id: string;
    url: string;
    signingSecret: string;
    /** Rotated-out secrets, newest first; those not yet expired sign beside the current one. */
    previousSecrets: PreviousSigningSecret[];
    /** No failure since the last success, and not turned off by the platform, when read. */
    healthy: boolean;
  };
  /** Set for a delivery a customer asked for (redelivery, recovery, test): one attempt, no schedule. */
  manual: { redeliveryOf: string | null } | null;
  /** The worker woke this delivery as its subscription's breaker probe (WakeHeldDeliveries). */
  probe: boolean;
  /** The page whose turn it holds, for a subscription that orders (DeliveryTurns); null when not ordered. */
  orderKey: string | null;
  /** The subscription's endpoint now (see DeliveryJob.endpoint), for the next attempt's job. */
  endpoint: string;
}

/** One attempt of one delivery, taken by a worker: what sending needs, and the subscription's delivery state read with it. */
export interface DeliveryClaim extends AttemptToSend {
  subscription: AttemptToSend['subscription'] & DeliveryState['subscription'];
  /** How fast the receiver takes attempts (docs/webhooks.md, Receivers set the pace); `slotAt` the rate slot this delivery was given when put off. */
  pace: DeliveryState['pace'];
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  /** Why no answer came (timeout, refused address…), short and free of secrets: the tenant sees it. */
  error: string | null;
  /** The operator's detail of `error` (which policy class, which DNS failure); logged, never shown to the tenant. */
  detail?: string | null;
  /** A 429 or 503 with Retry-After: how long the receiver asked us to wait (ms), before any bound. */
  retryAfterMs?: number | null;
  /** The start of an answer that was not a 2xx, as text (bounded by the sender); kept in the attempt's log. */
  responseExcerpt?: string | null;
  /** When the request went, its `webhook-timestamp` (set by the attempt, not the sender); kept in the log. */
  sentAt?: Date;
  /** The attempt's trace and span (the ones its `traceparent` named), for its log line. */
  traceId?: string;
  spanId?: string;
}

