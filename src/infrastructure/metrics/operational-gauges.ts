import { MikroORM } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import { Metrics } from '../../application/shared/metrics.port';
import { OPERATIONAL_COUNTS } from '../persistence/outbox/operational-counts';
import { daysAheadOf } from '../../application/webhook/history/make-history-days-ahead.use-case';
import { SqlHistoryDays } from '../persistence/history/sql-history-days';

/** Outbox backlog, age of its oldest event and unfinished deliveries, read from PostgreSQL at scrape. */
export function registerOutboxGauges(metrics: Metrics, orm: MikroORM): void {
  const read = async () => {
    const rows = await OPERATIONAL_COUNTS.rows(orm.em.fork(), {});
    return rows[0];
  };
  metrics.gauge('outbox_backlog_events', 'Committed events not yet relayed to deliveries', [], async () => [{ value: Number((await read()).backlog) }]);
  metrics.gauge('outbox_oldest_event_age_seconds', 'Age of the oldest event not yet relayed (0 when none)', [], async () => [{ value: Number((await read()).oldest ?? 0) }]);
  metrics.gauge('webhook_deliveries_unfinished', 'Deliveries pending or being sent', [], async () => [{ value: Number((await read()).pending) }]);
}

/** Whole days of webhook history made ahead of the clock (-1 when none is made), read at scrape. */
export function registerHistoryGauge(metrics: Metrics, orm: MikroORM): void {
  const days = new SqlHistoryDays(orm);
  metrics.gauge('webhook_history_days_ahead', 'Whole days of event history made ahead of the clock (-1: none); events written past them fail', [], async () => [
    { value: (await daysAheadOf(days, Date.now())) ?? -1 },
  ]);
}

/** Jobs in the delivery queue by state, read from the queue at scrape. */
export function registerQueueGauges(metrics: Metrics, queues: () => Queue[]): void {
  metrics.gauge('webhook_queue_jobs', 'Delivery jobs in the queues by state (every shard together)', ['state'], async () => {
    const totals = new Map<string, number>();
    for (const counts of await Promise.all(queues().map((queue) => queue.getJobCounts('waiting', 'delayed', 'active', 'failed')))) {
      for (const [state, value] of Object.entries(counts)) totals.set(state, (totals.get(state) ?? 0) + value);
    }
    return [...totals].map(([state, value]) => ({ labels: { state }, value }));
  });
}
