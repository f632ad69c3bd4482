import { boundSteps, HISTORY_LAYOUT } from './history-layout';
import { typeIdLowerBound, typeIdTime } from '../../../domain/shared/type-id';
import { DAY_MS, dayStart, EVENTS } from './history-tables';

type Run = (sql: string) => Promise<Record<string, unknown>[]>;

export const PARTITIONING_MIGRATION = 'Migration20261128080000_partitioned_history';

/** Whether the history holds no row at all (then its tables are made again, not attached). */
export const HISTORY_IS_EMPTY_SQL = `SELECT NOT EXISTS (SELECT 1 FROM outbox_events) AND NOT EXISTS (SELECT 1 FROM webhook_deliveries)
  AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts) AND NOT EXISTS (SELECT 1 FROM page_sessions) AS empty`;

/**
 * The first day of daily partitions the online step chose (the bound its checks prove), read back
 * from the events table's check; null when the step did not run (the tables were empty).
 */
export async function historyBoundOf(run: Run): Promise<number | null> {
  const rows = await run(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'outbox_events_partition_bound'`);
  const literal = rows.length === 0 ? null : /'([^']+)'/.exec(String(rows[0].def))?.[1];
  return literal ? typeIdTime(EVENTS.prefix, literal) : null;
}

/**
 * The partitioning migration's online step, run outside any transaction before it when the history
 * holds rows: builds the widened unique keys CONCURRENTLY and validates the bound checks, which
 * blocks no reads or writes however large the tables. Rows keep being written meanwhile: the
 * bound is tomorrow, so every id made until then is below it. Run again after a failure, it
 * picks up where it stopped (IF NOT EXISTS, the same bound read back).
 */
export async function prepareHistoryPartitioning(run: Run, now = Date.now()): Promise<void> {
  // Before the tables exist (a fresh database), or once they are partitioned, there is nothing to do.
  const [{ ready }] = await run(
    `SELECT to_regclass('outbox_events') IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass('outbox_events')) AS ready`,
  );
  if (!ready) return;
  const [{ empty }] = await run(HISTORY_IS_EMPTY_SQL);
  const kept = await historyBoundOf(run);
  if (empty && kept === null) return;
  const bound = kept ?? dayStart(now) + DAY_MS;
  for (const layout of HISTORY_LAYOUT) {
    for (const step of boundSteps(layout, typeIdLowerBound(layout.table.prefix, bound), true)) await run(step);
  }
}
