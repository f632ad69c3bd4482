import { typeIdLowerBound, typeIdTime } from '../../../domain/shared/type-id';

/**
 * The history tables, range-partitioned by day on a TypeID column (docs/decisions.md 147).
 * TypeIDs are UUIDv7: their text sorts by the time they were made (byte order, collation "C"), so
 * a day is a range of ids. Events, their deliveries and the deliveries' attempts are partitioned by
 * the event's id, and so is the event feed's positions (Migration20261129100000): one day of
 * webhook history is four partitions with the same bounds, dropped together. Sessions are
 * partitioned by their own id.
 */
export interface HistoryTable {
  table: string;
  /** The partition key: a TypeID column of `prefix`. */
  key: string;
  prefix: 'evt' | 'pagesession';
  /** Storage parameters each partition is made with (partitioned tables hold none themselves). */
  storage?: string;
}

export const EVENTS: HistoryTable = { table: 'outbox_events', key: 'id', prefix: 'evt' };
export const DELIVERIES: HistoryTable = { table: 'webhook_deliveries', key: 'event_id', prefix: 'evt', storage: 'fillfactor = 70' };
export const ATTEMPTS: HistoryTable = { table: 'webhook_delivery_attempts', key: 'event_id', prefix: 'evt' };
export const FEED: HistoryTable = { table: 'event_feed', key: 'event_id', prefix: 'evt' };
export const SESSIONS: HistoryTable = { table: 'page_sessions', key: 'id', prefix: 'pagesession' };

/** Webhook history in the order its days are dropped: what refers to an event goes before it. */
export const WEBHOOK_HISTORY = [ATTEMPTS, DELIVERIES, FEED, EVENTS] as const;
export const HISTORY_TABLES = [EVENTS, DELIVERIES, ATTEMPTS, FEED, SESSIONS] as const;

export const DAY_MS = 86_400_000;

/**
 * How far the clock of the process that made an event may run ahead of the clock of the process
 * that reads it. NTP keeps a fleet's clocks within milliseconds; an hour is a bound that holds
 * even for a host whose clock was badly set, and costs at most the next day's partition.
 */
export const CLOCK_SKEW_MS = 3_600_000;

/**
 * An upper bound on the ids of events that were made by `ms` (on any process's clock, within
 * CLOCK_SKEW_MS): `event_id < eventIdCeiling(ms)` holds for every such event, and prunes the
 * days after it, the 14 made ahead included.
 */
export function eventIdCeiling(ms: number): string {
  return typeIdLowerBound('evt', ms + CLOCK_SKEW_MS);
}

/** The start (UTC midnight) of the day holding `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * Ids past every TypeID (a suffix starts with 0-7): a partition from here up holds ids that are
 * not TypeIDs at all (rows written by hand), so that no write fails for want of a partition, and
 * it never holds a day's rows.
 */
export function beyondIds(prefix: string): string {
  return `${prefix}_8`;
}

/** `outbox_events_p20261128`: the partition of one day, from the smallest id of that day (typeIdLowerBound) to the next day's. */
export function dayPartition(table: HistoryTable, dayMs: number): string {
  return `${table.table}_p${new Date(dayMs).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** The partition that holds what the table held before it was partitioned (and anything older). */
export const beforePartition = (table: HistoryTable) => `${table.table}_before`;
export const beyondPartition = (table: HistoryTable) => `${table.table}_beyond`;

/** The DDL that makes one day's partition (or says nothing when it exists). */
export function createDaySql(table: HistoryTable, dayMs: number): string {
  return `CREATE TABLE IF NOT EXISTS ${dayPartition(table, dayMs)} PARTITION OF ${table.table}
    FOR VALUES FROM ('${typeIdLowerBound(table.prefix, dayMs)}') TO ('${typeIdLowerBound(table.prefix, dayMs + DAY_MS)}')${table.storage ? ` WITH (${table.storage})` : ''}`;
}

/** A partition's bounds as PostgreSQL prints them (pg_get_expr of relpartbound), as times. */
export function boundsOf(table: HistoryTable, printed: string): { from: number; to: number } | null {
  const match = /FROM \((.+)\) TO \((.+)\)/.exec(printed);
  if (!match) return null;
  const time = (literal: string, open: number) => {
    if (literal === 'MINVALUE') return -Infinity;
    if (literal === 'MAXVALUE') return Infinity;
    const id = literal.replace(/^'(.*)'$/, '$1');
    return id === beyondIds(table.prefix) ? Infinity : typeIdTime(table.prefix, id) ?? open;
  };
  return { from: time(match[1], -Infinity), to: time(match[2], Infinity) };
}
