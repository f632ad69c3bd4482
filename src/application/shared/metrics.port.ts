/** What the service counts and times, for operators (Prometheus at /metrics). */
export abstract class Metrics {
  abstract observeRequest(method: string, route: string, status: number, seconds: number): void;
  abstract rateLimited(scope: 'key' | 'ip'): void;
  abstract rateLimitFailOpen(): void;
  /** One delivery attempt: `outcome` as DeliverWebhook reports it, `statusClass` 2xx…5xx or `none`. */
  abstract deliveryAttempt(outcome: string, statusClass: string, seconds: number): void;
  abstract subscriptionAutoDisabled(): void;
  /** Adds a gauge read when metrics are scraped (backlogs, queue depth). */
  abstract gauge(name: string, help: string, labelNames: string[], read: () => Promise<{ labels?: Record<string, string>; value: number }[]>): void;
}
