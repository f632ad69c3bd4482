import { Metrics } from '../../application/shared/metrics.port';

/**
 * Metrics when they are not served (METRICS_ENABLED=false): nothing can read them, so nothing is
 * counted, timed or sampled (no histogram per request or attempt, no collector of the process's
 * default metrics watching the event loop and the GC).
 */
export class UnservedMetrics extends Metrics {
  observeRequest(): void {}
  rateLimited(): void {}
  rateLimitFailOpen(): void {}
  deliveryAttempt(): void {}
  subscriptionAutoDisabled(): void {}
  gauge(): void {}
}
