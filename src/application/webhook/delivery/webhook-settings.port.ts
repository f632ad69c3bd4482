import { HealthPolicy } from '../../../domain/webhook/endpoint-health';

/** Retry schedule and claim length, from configuration. */
export abstract class WebhookSettings {
  abstract readonly retrySchedule: number[];
  abstract readonly attemptLockMs: number;
  /** When the breaker opens and when a failing endpoint is turned off. */
  abstract readonly health: HealthPolicy;
}
