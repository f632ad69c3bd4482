import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schemas } from './api';

/**
 * A subscription's last 24 hours by hour: success rate (left axis, %) and p95 latency (right axis,
 * ms). uPlot draws on a canvas; the table beside it says the same for screen readers.
 */
export function MetricsChart({ metrics, label }: { metrics: Schemas['SubscriptionMetricsResponse']; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const hours = metrics.hours;
    const data: uPlot.AlignedData = [
      hours.map((h) => new Date(h.start).getTime() / 1000),
      hours.map((h) => (h.successRate === null ? null : h.successRate * 100)),
      hours.map((h) => h.latencyMs?.p95 ?? null),
    ];
    const plot = new uPlot(
      {
        width: Math.min(560, box.current.clientWidth || 560),
        height: 160,
        series: [{}, { label: 'success %', stroke: '#15803d', scale: '%' }, { label: 'p95 ms', stroke: '#1d4ed8', scale: 'ms' }],
        axes: [{}, { scale: '%' }, { scale: 'ms', side: 1, grid: { show: false } }],
        scales: { '%': { range: [0, 100] } },
      },
      data,
      box.current,
    );
    return () => plot.destroy();
  }, [metrics]);
  return <div class="chart" ref={box} role="img" aria-label={label} />;
}
