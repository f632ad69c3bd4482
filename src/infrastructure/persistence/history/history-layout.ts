import { ATTEMPTS, DELIVERIES, EVENTS, HistoryTable, SESSIONS } from './history-tables';

/**
 * What each partitioned history table holds besides its columns: its indexes and its foreign keys,
 * declared on the partitioned table so that every partition has them (Migration20261128080000).
 *
 * A unique index of a partitioned table must hold its partition key, so two keys widen:
 * a delivery's and an attempt's primary key is (id, event_id), and an attempt's number is unique
 * per (delivery_id, attempt_number, event_id), which is the same rule since a delivery has one
 * event. The event feed's position index is no longer unique: positions come from one counter
 * (decisions.md 142); it and the index over the publish mark were dropped again when the feed's
 * positions left the event row (Migration20261129100000): this layout is the one the partitioning
 * migration made, and stays so. The history tables no longer refer to each other by foreign keys:
 * a day of them is dropped as a whole, attempts and deliveries with their events (decisions.md
 * 147). The deliveries' key to subscriptions declared here was dropped again by
 * Migration20261129200000 (decisions.md 154).
 */
export interface TableLayout {
  table: HistoryTable;
  primaryKey: string;
  indexes: string[];
  foreignKeys: string[];
  /** The old table's keys to other history tables, which a day dropped whole no longer keeps. */
  droppedForeignKeys?: string[];
}

export const HISTORY_LAYOUT: TableLayout[] = [
  {
    table: EVENTS,
    primaryKey: 'id',
    indexes: [
      'CREATE INDEX outbox_events_feed_idx ON outbox_events (tenant_id, position) WHERE position IS NOT NULL',
      'CREATE INDEX outbox_events_tenant_idx ON outbox_events (tenant_id, id DESC)',
      'CREATE INDEX outbox_events_tenant_type_idx ON outbox_events (tenant_id, type, id DESC)',
      'CREATE INDEX outbox_events_unpublished_idx ON outbox_events (id) WHERE published_at IS NULL',
    ],
    foreignKeys: ['ALTER TABLE outbox_events ADD CONSTRAINT outbox_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id)'],
  },
  {
    table: DELIVERIES,
    primaryKey: 'id, event_id',
    indexes: [
      // Led by the subscription, not the event: nothing looks deliveries up by their event alone, and
      // led by the event it drew the claim's plan off the primary key whenever an event had one delivery.
      'CREATE UNIQUE INDEX webhook_deliveries_subscription_event_manual_key ON webhook_deliveries (subscription_id, event_id, manual_id) NULLS NOT DISTINCT',
      `CREATE INDEX webhook_deliveries_held_idx ON webhook_deliveries (subscription_id, id)
         WHERE status IN ('pending', 'sending') AND next_attempt_at IS NULL AND manual_id IS NULL`,
      `CREATE INDEX webhook_deliveries_manual_waiting_idx ON webhook_deliveries (tenant_id) WHERE manual_id IS NOT NULL AND status IN ('pending', 'sending')`,
      `CREATE INDEX webhook_deliveries_recoverable_idx ON webhook_deliveries (subscription_id, created_at)
         WHERE manual_id IS NULL AND (status = 'failed' OR (status IN ('pending', 'sending') AND attempt_count > 0))`,
      'CREATE INDEX webhook_deliveries_redelivery_idx ON webhook_deliveries (redelivery_of) WHERE redelivery_of IS NOT NULL',
      `CREATE INDEX webhook_deliveries_requested_idx ON webhook_deliveries (id) WHERE manual_id IS NOT NULL AND enqueued_at IS NULL AND status = 'pending'`,
      `CREATE INDEX webhook_deliveries_turns_idx ON webhook_deliveries (subscription_id, order_key, order_seq)
         WHERE order_key IS NOT NULL AND status IN ('pending', 'sending', 'waiting')`,
      `CREATE INDEX webhook_deliveries_unfinished_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending')`,
    ],
    foreignKeys: [
      'ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions (id)',
    ],
    droppedForeignKeys: ['webhook_deliveries_event_id_fkey'],
  },
  {
    table: ATTEMPTS,
    primaryKey: 'id, event_id',
    indexes: [
      'CREATE UNIQUE INDEX webhook_delivery_attempts_number_key ON webhook_delivery_attempts (delivery_id, attempt_number, event_id)',
      'CREATE INDEX webhook_delivery_attempts_subscription_idx ON webhook_delivery_attempts (subscription_id, id DESC)',
    ],
    foreignKeys: [],
    droppedForeignKeys: ['webhook_delivery_attempts_delivery_id_fkey'],
  },
  {
    table: SESSIONS,
    primaryKey: 'id',
    indexes: ['CREATE INDEX page_sessions_page_id_idx ON page_sessions (page_id, id)'],
    foreignKeys: [
      'ALTER TABLE page_sessions ADD CONSTRAINT page_sessions_page_group_id_fkey FOREIGN KEY (page_group_id) REFERENCES page_groups (id)',
      'ALTER TABLE page_sessions ADD CONSTRAINT page_sessions_page_id_fkey FOREIGN KEY (page_id) REFERENCES pages (id)',
      'ALTER TABLE page_sessions ADD CONSTRAINT page_sessions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id)',
    ],
  },
];

/**
 * What a table that holds rows needs before it can become the first partition of its new
 * partitioned table without a long lock: the widened unique keys as indexes and a check that
 * proves the partition's bound, so that attaching it reads none of its rows. `online`: the
 * migration's online step (migrate.ts), outside any transaction: the indexes are built
 * CONCURRENTLY and the check validated apart, neither blocking writes. Otherwise the same in the
 * migration's transaction, under its lock (when the online step did not run).
 */
export function boundSteps(layout: TableLayout, bound: string, online: boolean): string[] {
  const t = layout.table;
  const concurrently = online ? 'CONCURRENTLY ' : '';
  const steps: string[] = [];
  if (layout.primaryKey !== 'id') steps.push(`CREATE UNIQUE INDEX ${concurrently}IF NOT EXISTS ${t.table}_id_event_key ON ${t.table} (id, event_id)`);
  if (t === ATTEMPTS) steps.push(`CREATE UNIQUE INDEX ${concurrently}IF NOT EXISTS ${t.table}_number_event_key ON ${t.table} (delivery_id, attempt_number, event_id)`);
  if (t === DELIVERIES) {
    steps.push(`CREATE UNIQUE INDEX ${concurrently}IF NOT EXISTS ${t.table}_subscription_event_manual_key ON ${t.table} (subscription_id, event_id, manual_id) NULLS NOT DISTINCT`);
  }
  if (t === EVENTS) steps.push(`CREATE INDEX ${concurrently}IF NOT EXISTS outbox_events_feed_any_idx ON outbox_events (tenant_id, position) WHERE position IS NOT NULL`);
  steps.push(
    `DO $$ BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${t.table}_partition_bound') THEN
         ALTER TABLE ${t.table} ADD CONSTRAINT ${t.table}_partition_bound CHECK (${t.key} < '${bound}') NOT VALID;
       END IF;
     END $$`,
    `ALTER TABLE ${t.table} VALIDATE CONSTRAINT ${t.table}_partition_bound`,
  );
  return steps;
}
