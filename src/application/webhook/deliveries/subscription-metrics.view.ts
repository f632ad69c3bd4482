import { AttemptCounts } from './webhook-delivery-queries.port';

export const METRICS_WINDOWS = { '24h': 24, '7d': 7 * 24 } as const;
export type MetricsWindow = keyof typeof METRICS_WINDOWS;

/** Attempts in a span of time and how they went. */
export interface AttemptFigures {
  attempts: number;
  succeeded: number;
  failed: number;
  /** succeeded ÷ attempts, 0 to 1; null with no attempt. */
  successRate: number | null;
  /** Attempt durations in ms (nearest rank); null with no attempt. */
  latencyMs: { p50: number; p95: number; p99: number } | null;
}

/** A subscription's attempts by hour over a window (GET …/metrics, an extension of the spec). */
export interface SubscriptionMetricsView {
  subscriptionId: string;
  window: MetricsWindow;
  /** The window: whole hours, the last one the current hour. */
  from: string;
  to: string;
  total: AttemptFigures;
  /** Every hour of the window, oldest first, empty ones included. */
  hours: (AttemptFigures & { start: string })[];
}

const HOUR_MS = 3_600_000;

/** The window that ends with the hour `now` is in. */
export function metricsWindow(window: MetricsWindow, now: Date): { from: Date; to: Date } {
  const to = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  return { from: new Date(to - METRICS_WINDOWS[window] * HOUR_MS), to: new Date(to) };
}

/** The view from the counted rows: every hour of the window, in order. */
export function toMetricsView(subscriptionId: string, window: MetricsWindow, span: { from: Date; to: Date }, rows: readonly AttemptCounts[]): SubscriptionMetricsView {
  const byHour = new Map(rows.filter((r) => r.hour !== null).map((r) => [r.hour!.getTime(), r]));
  const hours: SubscriptionMetricsView['hours'] = [];
  for (let at = span.from.getTime(); at < span.to.getTime(); at += HOUR_MS) {
    hours.push({ start: new Date(at).toISOString(), ...figuresOf(byHour.get(at)) });
  }
  const total = figuresOf(rows.find((r) => r.hour === null));
  return { subscriptionId, window, from: span.from.toISOString(), to: span.to.toISOString(), total, hours };
}

function figuresOf(counts: AttemptCounts | undefined): AttemptFigures {
  if (counts === undefined || counts.attempts === 0) return { attempts: 0, succeeded: 0, failed: 0, successRate: null, latencyMs: null };
  const { attempts, succeeded, p50, p95, p99 } = counts;
  return {
    attempts,
    succeeded,
    failed: attempts - succeeded,
    successRate: Math.round((succeeded / attempts) * 10_000) / 10_000,
    latencyMs: { p50: p50 ?? 0, p95: p95 ?? 0, p99: p99 ?? 0 },
  };
}
