import { Migration } from '@mikro-orm/migrations';
import { boundSteps, HISTORY_LAYOUT, TableLayout } from '../history/history-layout';
import { DAYS_MADE_AHEAD } from '../../../application/webhook/history/roll-history-days.use-case';
import { typeIdLowerBound } from '../../../domain/shared/type-id';
import { beforePartition, beyondIds, beyondPartition, createDaySql, DAY_MS, dayStart } from '../history/history-tables';
import { HISTORY_IS_EMPTY_SQL, historyBoundOf } from '../history/history-bound';

/**
 * Time-partitioned history (issue 44, docs/decisions.md 147): outbox_events, webhook_deliveries,
 * webhook_delivery_attempts and page_sessions become tables range-partitioned by day on a TypeID
 * column (history-tables.ts), so that retention drops whole days instead of deleting rows.
 *
 * - An empty table (a fresh start) is made again as a partitioned one, with a partition for
 *   today and the next DAYS_MADE_AHEAD days, one below them for anything older (`_before`) and one
 *   above every TypeID for ids written by hand (`_beyond`).
 * - A table that holds rows becomes the `_before` partition of its new partitioned table, as
 *   Convoy does: nothing is copied. Its bound is proven by a check the online step validated
 *   without blocking writes, and the widened unique keys were built CONCURRENTLY then
 *   (migrate.ts, boundSteps); here only catalog changes remain, each a short lock.
 */
export class Migration20261128080000_partitioned_history extends Migration {
  override name = 'Migration20261128080000_partitioned_history';

  override async up(): Promise<void> {
    const today = dayStart(Date.now());
    const kept = await historyBoundOf((sql) => this.execute(sql));
    await this.execute('LOCK TABLE outbox_events, webhook_deliveries, webhook_delivery_attempts, page_sessions IN ACCESS EXCLUSIVE MODE');
    // One bound for all: the three webhook tables' days must line up (they are dropped together).
    const [{ empty }] = await this.execute(HISTORY_IS_EMPTY_SQL);
    const fresh = Boolean(empty) && kept === null;
    const firstDay = fresh ? today : (kept ?? today + DAY_MS);
    for (const layout of HISTORY_LAYOUT) {
      await this.partition(layout, fresh, firstDay);
      for (let day = firstDay; day <= today + DAYS_MADE_AHEAD * DAY_MS; day += DAY_MS) await this.execute(createDaySql(layout.table, day));
    }
  }

  private async partition(layout: TableLayout, empty: boolean, firstDay: number): Promise<void> {
    const { table, key, prefix, storage } = layout.table;
    const bound = typeIdLowerBound(prefix, firstDay);
    const before = beforePartition(layout.table);
    if (empty) {
      await this.execute(`CREATE TABLE ${table}_partitioned (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (${key})`);
      await this.execute(`DROP TABLE ${table} CASCADE`);
      await this.execute(`ALTER TABLE ${table}_partitioned RENAME TO ${table}`);
      await this.declare(layout);
      await this.execute(`CREATE TABLE ${before} PARTITION OF ${table} FOR VALUES FROM (MINVALUE) TO ('${bound}')${storage ? ` WITH (${storage})` : ''}`);
    } else {
      // What the online step built (or, when it did not run, built here under this lock).
      for (const step of boundSteps(layout, bound, false)) await this.execute(step);
      for (const foreignKey of layout.droppedForeignKeys ?? []) await this.execute(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${foreignKey}`);
      if (layout.primaryKey !== 'id') {
        await this.execute(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_id_event_key UNIQUE USING INDEX ${table}_id_event_key`);
      }
      if (table === 'webhook_delivery_attempts') {
        await this.execute(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_number_event_key UNIQUE USING INDEX ${table}_number_event_key`);
      }
      // Index names are the schema's: the old table's give theirs up to the new table's.
      const indexes = await this.execute(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = '${table}'`);
      for (const { indexname } of indexes) await this.execute(`ALTER INDEX ${indexname} RENAME TO ${`b_${indexname}`.slice(0, 63)}`);
      await this.execute(`ALTER TABLE ${table} RENAME TO ${before}`);
      await this.execute(`CREATE TABLE ${table} (LIKE ${before} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (${key})`);
      await this.execute(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_partition_bound`);
      await this.declare(layout);
      await this.execute(`ALTER TABLE ${table} ATTACH PARTITION ${before} FOR VALUES FROM (MINVALUE) TO ('${bound}')`);
    }
    await this.execute(`CREATE TABLE ${beyondPartition(layout.table)} PARTITION OF ${table} FOR VALUES FROM ('${beyondIds(prefix)}') TO (MAXVALUE)`);
  }

  private async declare(layout: TableLayout): Promise<void> {
    const { table } = layout.table;
    await this.execute(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${layout.primaryKey})`);
    for (const index of layout.indexes) await this.execute(index);
    for (const foreignKey of layout.foreignKeys) await this.execute(foreignKey);
  }
}
