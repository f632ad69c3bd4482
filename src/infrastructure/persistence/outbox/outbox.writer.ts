import { EntityManager } from '@mikro-orm/postgresql';
import { AggregateRoot } from '../../../domain/shared/aggregate-root';
import { DomainEvent } from '../../../domain/shared/domain-event';
import { sqlRows } from '../connection/sql-statement';
import { currentTraceCarrier } from '../../tracing/trace-carrier';
import { jsonOf } from '../../../application/shared/json-text';
import { noteRelayWork, OUTBOX_CHANNEL } from './relay-wake';
import { touched } from '../connection/after-commit';
import type { Stored, TypedStatement } from '../typed/statement';

export { OUTBOX_CHANNEL };

/**
 * The webhook envelope of an event (decisions.md, Webhooks), serialised once: these bytes are
 * what every delivery of the event carries and signs.
 */
export function eventBody(event: DomainEvent): string {
  // The same text as JSON.stringify of the whole envelope; the data's own text may be made already (jsonOf).
  const head = JSON.stringify({ id: event.id, type: event.type, createdAt: event.occurredAt.toISOString(), tenantId: event.tenantId });
  return `${head.slice(0, -1)},"data":${jsonOf(event.data)}}`;
}

// Every outbox row is written from these, inside the statement that writes what it reports.
// The trace context is the one the statement runs in: its deliveries' attempts join that trace.
const OUTBOX_COLUMNS = 'id, tenant_id, type, body, created_at, traceparent, tracestate';
/** How a statement that writes events begins them (outboxInsert): such a statement wakes the relay. */
const OUTBOX_TABLE_INSERT = 'INSERT INTO outbox_events';
const OUTBOX_RECORD = 'id text, tenant_id text, type text, body json, created_at timestamptz, traceparent text, tracestate text';
// `body` arrives as a JSON value inside the parameter, not as a string in it: PostgreSQL's json
// type keeps a value's text exactly as given, so `body::text` is the event's body byte for byte,
// without escaping it into a JSON string and back (tested: test/integration/outbox-writer.test.ts).
const OUTBOX_VALUES = 'e.id, e.tenant_id, e.type, e.body::text, e.created_at, e.traceparent, e.tracestate';

/** The events the aggregates recorded since they were loaded or made, oldest first; empties their lists. */
export function recordedEvents(...aggregates: AggregateRoot[]): DomainEvent[] {
  return aggregates.flatMap((aggregate) => aggregate.pullEvents());
}

/**
 * The outbox rows of some events as one `INSERT … SELECT` from parameter $param, a JSON array of
 * the rows (`outboxParams`). With `after`, the name of a CTE of the same statement, they are
 * written only if it returned a row (the change they report was written). Each is queued for the
 * relay by the table's trigger (Migration20261129100000). `relayed` writes them as published
 * already, which the trigger does not queue: a test event, whose one delivery is written beside it
 * instead of by the relay. One JSON parameter rather than an array per column: the driver escaped each array's
 * elements into a literal in JavaScript, which showed in the API's profile of every write.
 */
export function outboxInsert(param: number, options: { after?: string; relayed?: boolean } = {}): string {
  const columns = options.relayed ? `${OUTBOX_COLUMNS}, published_at` : OUTBOX_COLUMNS;
  const values = options.relayed ? `${OUTBOX_VALUES}, e.created_at` : OUTBOX_VALUES;
  const when = options.after ? ` WHERE EXISTS (SELECT 1 FROM ${options.after})` : '';
  return `${OUTBOX_TABLE_INSERT} (${columns}) SELECT ${values} FROM json_to_recordset($${param}::json) AS e(${OUTBOX_RECORD})${when}`;
}

/**
 * The parameter of `outboxInsert`: the rows as one JSON text (a one-element list, spread into a
 * statement's values). Each body goes in as the JSON it is (see OUTBOX_RECORD).
 */
export function outboxParams(events: readonly DomainEvent[]): unknown[] {
  const trace = currentTraceCarrier();
  const context = `"traceparent":${JSON.stringify(trace?.traceparent ?? null)},"tracestate":${JSON.stringify(trace?.tracestate ?? null)}`;
  const rows = events.map(
    (e) =>
      `{"id":${JSON.stringify(e.id)},"tenant_id":${JSON.stringify(e.tenantId)},"type":${JSON.stringify(e.type)},"body":${eventBody(e)},"created_at":${JSON.stringify(e.occurredAt.toISOString())},${context}}`,
  );
  return [`[${rows.join(',')}]`];
}

/**
 * The one way a repository writes aggregates (issue 43, item 1): `text` runs only once every event
 * the aggregates recorded has been taken into its parameters (`outboxParams(recordedEvents(…))`,
 * written by the statement's `outboxInsert`). An aggregate still holding one would lose it without
 * a word, so the write throws instead, before anything is written (and the unit of work rolls
 * back). A statement that writes events wakes the relay after the unit of work commits.
 */
export function writeAggregates<T>(em: EntityManager, aggregates: readonly AggregateRoot[], text: string, params: readonly unknown[]): Promise<T[]>;
/** The same for a statement typed from the entities, which writes no events (a write that records events is SQL text: outboxInsert). */
export function writeAggregates<Args, Row>(em: EntityManager, aggregates: readonly AggregateRoot[], statement: TypedStatement<Args, Row>, args: Args): Promise<Stored<Row>[]>;
export function writeAggregates(em: EntityManager, aggregates: readonly AggregateRoot[], statement: string | TypedStatement<unknown, unknown>, params: unknown): Promise<unknown[]> {
  const unsaved = aggregates.flatMap((aggregate) => aggregate.peekEvents().map((event) => event.type));
  if (unsaved.length > 0) return Promise.reject(new Error(`events recorded and not written by the repository's statement: ${unsaved.join(', ')}`));
  // Events it records after this write must be written by another before the unit of work commits.
  for (const aggregate of aggregates) touched(aggregate);
  if (typeof statement !== 'string') return statement.rows(em, params);
  const values = params as readonly unknown[];
  return statement.includes(OUTBOX_TABLE_INSERT) ? writeForRelay(em, statement, values) : sqlRows(em, statement, values);
}

/**
 * Runs a statement that writes rows for the relay (events, or manual deliveries it hands to the
 * queue) on the unit of work's connection; the unit of work wakes the relay after its commit.
 */
export function writeForRelay<T>(em: EntityManager, text: string, params: readonly unknown[]): Promise<T[]> {
  noteRelayWork(em, lowestEventId(params));
  return sqlRows<T>(em, text, params);
}

/** How each row of outboxParams begins, and what follows its id (a body's own envelope has "type" there). */
const ROW_START = '{"id":"evt_';
const AFTER_ID = '","tenant_id":';
const ID_LENGTH = 'evt_'.length + 26;

/**
 * The lowest event id in a statement's outboxParams, for the relay's wake-up (relay-wake.ts); null
 * when it has none (manual deliveries, or an aggregate's write that reports no event): the relay
 * then reads the whole outbox.
 */
function lowestEventId(params: readonly unknown[]): string | null {
  let lowest: string | null = null;
  for (const param of params) {
    if (typeof param !== 'string' || !param.startsWith(`[${ROW_START}`)) continue;
    for (let at = param.indexOf(ROW_START); at !== -1; at = param.indexOf(ROW_START, at + 1)) {
      const start = at + ROW_START.length - 'evt_'.length;
      if (!param.startsWith(AFTER_ID, start + ID_LENGTH)) continue;
      const id = param.slice(start, start + ID_LENGTH);
      if (lowest === null || id < lowest) lowest = id;
    }
  }
  return lowest;
}
