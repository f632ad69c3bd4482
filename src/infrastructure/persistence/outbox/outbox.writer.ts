import { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from '../../../domain/shared/domain-event';
import { sqlRows } from '../sql-statement';
import { OUTBOX_CHANNEL, wakeRelayOnCommit } from './outbox-wake';

export { OUTBOX_CHANNEL };

/**
 * The webhook envelope of an event (decisions.md, Webhooks), serialised once: these bytes are
 * what every delivery of the event carries and signs.
 */
export function eventBody(event: DomainEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.occurredAt.toISOString(), tenantId: event.tenantId, data: event.data });
}

// Every outbox row is written from these: the one INSERT of a batch (writeToOutbox), the one
// inside a larger statement (outboxInsertAfter) and a row relayed when written (a test event).
const OUTBOX_COLUMNS = 'id, tenant_id, type, body, created_at';
const OUTBOX_TYPES = ['text', 'text', 'text', 'text', 'timestamptz'];

/** An event's outbox row already relayed (published when written): parameters `outboxParams`. */
export const INSERT_RELAYED_OUTBOX_ROW = `INSERT INTO outbox_events (${OUTBOX_COLUMNS}, published_at) VALUES ($1, $2, $3, $4, $5, $5)`;

/** An event's outbox row, in the order of OUTBOX_COLUMNS and OUTBOX_TYPES: the parameters of outboxInsertAfter. */
export function outboxParams(event: DomainEvent): unknown[] {
  return [event.id, event.tenantId, event.type, eventBody(event), event.occurredAt];
}

/**
 * The outbox row of one event as a statement of a larger one: an `INSERT … SELECT` of its values
 * as parameters $first…$first+4 (`outboxParams`), `FROM after` so that it is written only when the
 * row it follows was. For writes that are one statement (a page with its first version); call
 * `markOutboxWritten` when it wrote.
 */
export function outboxInsertAfter(after: string, first: number): string {
  const values = OUTBOX_TYPES.map((type, i) => `$${first + i}::${type}`).join(', ');
  return `INSERT INTO outbox_events (${OUTBOX_COLUMNS}) SELECT ${values} FROM ${after}`;
}

/** Appends events to the outbox on the context EntityManager: inside its transaction if any. */
export async function writeToOutbox(em: EntityManager, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(outboxParams);
  await sqlRows(
    em,
    `INSERT INTO outbox_events (${OUTBOX_COLUMNS}) SELECT * FROM unnest(${OUTBOX_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`,
    OUTBOX_TYPES.map((_, column) => rows.map((row) => row[column])),
  );
  // After the commit of the enclosing `committingOutbox` (outbox-wake.ts says why).
  await wakeRelayOnCommit(em);
}
