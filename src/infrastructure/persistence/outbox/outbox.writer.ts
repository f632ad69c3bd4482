import { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from '../../../domain/shared/domain-event';
import { sqlRows } from '../sql-statement';
import { markOutboxWritten, OUTBOX_CHANNEL } from './outbox-wake';

export { OUTBOX_CHANNEL };

/**
 * The webhook envelope of an event (decisions.md, Webhooks), serialised once: these bytes are
 * what every delivery of the event carries and signs.
 */
export function eventBody(event: DomainEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.occurredAt.toISOString(), tenantId: event.tenantId, data: event.data });
}

/** Appends events to the outbox on the context EntityManager: inside its transaction if any. */
export async function writeToOutbox(em: EntityManager, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await sqlRows(
    em,
    `INSERT INTO outbox_events (id, tenant_id, type, body, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])`,
    [events.map((e) => e.id), events.map((e) => e.tenantId), events.map((e) => e.type), events.map(eventBody), events.map((e) => e.occurredAt)],
  );
  // The relay is woken after the commit by the enclosing `committingOutbox` (outbox-wake.ts says
  // why). A writer outside one notifies in its transaction (delivered on commit, dropped on
  // rollback); the relay also polls, so a missed notification only adds latency.
  if (!markOutboxWritten()) await sqlRows(em, `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
}
