import { metricsWindow, toMetricsView } from '../../../../src/application/webhook/deliveries/subscription-metrics.view';

describe('a subscription’s metrics window', () => {
  it('ends with the hour now is in and holds whole hours', () => {
    const span = metricsWindow('24h', new Date('2026-12-06T10:17:45.123Z'));
    expect(span).toEqual({ from: new Date('2026-12-05T11:00:00.000Z'), to: new Date('2026-12-06T11:00:00.000Z') });
    expect(metricsWindow('7d', new Date('2026-12-06T10:00:00.000Z')).from).toEqual(new Date('2026-11-29T11:00:00.000Z'));
  });

  it('shows every hour, empty ones with no rate and no latency, and the window’s totals', () => {
    const span = metricsWindow('24h', new Date('2026-12-06T10:17:45.123Z'));
    const view = toMetricsView('whsub_1', '24h', span, [
      { hour: new Date('2026-12-06T10:00:00.000Z'), attempts: 3, succeeded: 2, p50: 10, p95: 40, p99: 40 },
      { hour: null, attempts: 3, succeeded: 2, p50: 10, p95: 40, p99: 40 },
    ]);
    expect(view.hours).toHaveLength(24);
    expect(view.hours[0]).toEqual({ start: '2026-12-05T11:00:00.000Z', attempts: 0, succeeded: 0, failed: 0, successRate: null, latencyMs: null });
    expect(view.hours[23]).toEqual({ start: '2026-12-06T10:00:00.000Z', attempts: 3, succeeded: 2, failed: 1, successRate: 0.6667, latencyMs: { p50: 10, p95: 40, p99: 40 } });
    expect(view.total).toEqual({ attempts: 3, succeeded: 2, failed: 1, successRate: 0.6667, latencyMs: { p50: 10, p95: 40, p99: 40 } });
  });
});
