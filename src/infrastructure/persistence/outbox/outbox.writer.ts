import { EntityManager } from '@mikro-orm/postgresql';
import { AggregateRoot } from '../../../domain/shared/aggregate-root';
import { DomainEvent } from '../../../domain/shared/domain-event';
import { sqlRows } from '../connection/sql-statement';
import { currentTraceCarrier } from '../../tracing/trace-carrier';
import { noteRelayWork, OUTBOX_CHANNEL } from './relay-wake';

export { OUTBOX_CHANNEL };

/**
 * The webhook envelope of an event (decisions.md, Webhooks), serialised once: these bytes are
 * what every delivery of the event carries and signs.
 */
export function eventBody(event: DomainEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.occurredAt.toISOString(), tenantId: event.tenantId, data: event.data });
}

// Every outbox row is written from these, inside the statement that writes what it reports.
// The trace context is the one the statement runs in: its deliveries' attempts join that trace.
const OUTBOX_COLUMNS = 'id, tenant_id, type, body, created_at, traceparent, tracestate';
const OUTBOX_TYPES = ['text', 'text', 'text', 'text', 'timestamptz', 'text', 'text'];

/** The events the aggregates recorded since they were loaded or made, oldest first; empties their lists. */
export function recordedEvents(...aggregates: AggregateRoot[]): DomainEvent[] {
  return aggregates.flatMap((aggregate) => aggregate.pullEvents());
}

/**
 * The outbox rows of some events as one `INSERT … SELECT` of parameter arrays $first…$first+6
 * (`outboxParams`). With `after`, the name of a CTE of the same statement, they are written only
 * if it returned a row (the change they report was written). `relayed` writes them as published
 * already: a test event, whose one delivery is written beside it instead of by the relay.
 */
export function outboxInsert(first: number, options: { after?: string; relayed?: boolean } = {}): string {
  const arrays = OUTBOX_TYPES.map((type, i) => `$${first + i}::${type}[]`).join(', ');
  const columns = options.relayed ? `${OUTBOX_COLUMNS}, published_at` : OUTBOX_COLUMNS;
  const values = options.relayed ? 'e.*, e.created_at' : 'e.*';
  const when = options.after ? ` WHERE EXISTS (SELECT 1 FROM ${options.after})` : '';
  return `INSERT INTO outbox_events (${columns}) SELECT ${values} FROM unnest(${arrays}) AS e(${OUTBOX_COLUMNS})${when}`;
}

/** The parameters of `outboxInsert`: one array per column. */
export function outboxParams(events: readonly DomainEvent[]): unknown[] {
  const trace = currentTraceCarrier();
  return [
    events.map((e) => e.id),
    events.map((e) => e.tenantId),
    events.map((e) => e.type),
    events.map(eventBody),
    events.map((e) => e.occurredAt),
    events.map(() => trace?.traceparent ?? null),
    events.map(() => trace?.tracestate ?? null),
  ];
}

/**
 * Runs a statement that writes rows for the relay (events, or manual deliveries it hands to the
 * queue) on the unit of work's connection; the unit of work wakes the relay after its commit.
 */
export function writeForRelay<T>(em: EntityManager, text: string, params: readonly unknown[]): Promise<T[]> {
  noteRelayWork();
  return sqlRows<T>(em, text, params);
}
