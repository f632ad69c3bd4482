import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Metrics } from '../../application/shared/metrics.port';

/**
 * prom-client behind the Metrics port, one registry per process (an `all` process shares it
 * between the API and the worker). Label values are bounded: route patterns, never raw paths.
 */
export class PrometheusMetrics extends Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly limited: Counter<'scope'>;
  private readonly failOpen: Counter;
  private readonly attempts: Counter<'outcome' | 'status_class'>;
  private readonly attemptSeconds: Histogram<'status_class'>;
  private readonly autoDisabled: Counter;

  constructor() {
    super();
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.limited = new Counter({ name: 'rate_limit_rejections_total', help: 'Requests refused with 429', labelNames: ['scope'], registers: [this.registry] });
    this.failOpen = new Counter({ name: 'rate_limit_fail_open_total', help: 'Requests let through because the rate-limit store was unreachable', registers: [this.registry] });
    this.attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome and receiver status class',
      labelNames: ['outcome', 'status_class'],
      registers: [this.registry],
    });
    this.attemptSeconds = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time from sending a delivery to its answer, by status class',
      labelNames: ['status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.autoDisabled = new Counter({
      name: 'webhook_subscriptions_auto_disabled_total',
      help: 'Subscriptions turned off because every delivery failed for a whole retry schedule',
      registers: [this.registry],
    });
  }

  subscriptionAutoDisabled(): void {
    this.autoDisabled.inc();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  rateLimited(scope: 'key' | 'ip'): void {
    this.limited.inc({ scope });
  }

  rateLimitFailOpen(): void {
    this.failOpen.inc();
  }

  deliveryAttempt(outcome: string, statusClass: string, seconds: number): void {
    this.attempts.inc({ outcome, status_class: statusClass });
    this.attemptSeconds.observe({ status_class: statusClass }, seconds);
  }

  gauge(name: string, help: string, labelNames: string[], read: () => Promise<{ labels?: Record<string, string>; value: number }[]>): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const sample of await read().catch(() => [])) {
          if (sample.labels) this.set(sample.labels, sample.value);
          else this.set(sample.value);
        }
      },
    });
  }
}
