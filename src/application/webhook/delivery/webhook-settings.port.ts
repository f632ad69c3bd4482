/** Retry schedule and claim length, from configuration. */
export abstract class WebhookSettings {
  abstract readonly retrySchedule: number[];
  abstract readonly attemptLockMs: number;
}
