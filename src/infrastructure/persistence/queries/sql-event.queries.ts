import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { EventEnvelope, EventQueries, FeedSlice } from '../../../application/event/event-queries.port';
import { JsonText } from '../../../application/shared/json-text';
import { ListRequest, ListSlice, mapSlice, toSlice } from '../../../application/shared/pagination';
import { LoggedEventType } from '../../../domain/events/event-catalogue';
import { ID_PREFIXES, typeIdLowerBound } from '../../../domain/shared/type-id';
import { pageRows, sqlParams, sqlRows } from '../connection/sql-statement';

/**
 * The statement of one page of the log. `createdAfter` bounds the id too: an event's id is a
 * UUIDv7 made from its `occurredAt` (or, within one process, a later millisecond, never an
 * earlier one), so every event created after T has an id at or above the lowest id of T + 1 ms.
 * That turns the filter into the index's own range: a `createdAfter` in the future reads no row,
 * instead of the whole of the tenant's log (which a time filter alone would read, newest first,
 * looking for rows that are not there). `created_at` stays in the filter, exact to the
 * millisecond written.
 */
export function eventListStatement(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, page: ListRequest): { text: string; values: unknown[] } {
  const p = sqlParams();
  const where = [`tenant_id = ${p(tenantId)}`];
  if (filter.type) where.push(`type = ${p(filter.type)}`);
  if (filter.createdAfter) {
    where.push(`id >= ${p(typeIdLowerBound(ID_PREFIXES.event, filter.createdAfter.getTime() + 1))}`);
    where.push(`created_at > ${p(filter.createdAfter)}`);
  }
  if (page.after) where.push(`id < ${p(page.after)}`);
  return { text: `SELECT id, body FROM outbox_events WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${pageRows(page.limit)}`, values: p.values };
}

/**
 * The outbox is the event log: `body` holds the envelope exactly as every delivery carried and
 * signed it, sent here as it is. Keyset on (tenant_id, id DESC): event ids are UUIDv7 TypeIDs made
 * at the event's time, so this is newest first (Migration20261125070000_events_api's indexes).
 */
@Injectable()
export class SqlEventQueries extends EventQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, page: ListRequest): Promise<ListSlice<JsonText<EventEnvelope>>> {
    const statement = eventListStatement(tenantId, filter, page);
    const rows = await sqlRows<{ id: string; body: string }>(this.em, statement.text, statement.values);
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<EventEnvelope>(row.body));
  }

  async feed(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, after: number, limit: number): Promise<FeedSlice> {
    // Through event_feed_position_idx (tenant_id, position): a position is given once an event is
    // relayed, so an event not relayed yet is not in the feed (decisions.md 142, 151). The filters
    // read the feed's narrow rows; only the page's bodies are read, each by its event's key.
    const p = sqlParams();
    const where = [`tenant_id = ${p(tenantId)}`, `position > ${p(after)}`];
    if (filter.type) where.push(`type = ${p(filter.type)}`);
    if (filter.createdAfter) where.push(`created_at > ${p(filter.createdAfter)}`);
    const rows = await sqlRows<{ position: string; body: string }>(
      this.em,
      `SELECT f.position, o.body
       FROM (SELECT event_id, position FROM event_feed WHERE ${where.join(' AND ')} ORDER BY position LIMIT ${pageRows(limit)}) f
       CROSS JOIN LATERAL (SELECT body FROM outbox_events o WHERE o.id = f.event_id LIMIT 1) o
       ORDER BY f.position`,
      p.values,
    );
    const items = rows.slice(0, limit);
    return {
      items: items.map((row) => new JsonText<EventEnvelope>(row.body)),
      position: items.length === 0 ? after : Number(items[items.length - 1].position),
      hasMore: rows.length > limit,
    };
  }

  async findById(tenantId: string, id: string): Promise<JsonText<EventEnvelope> | null> {
    const rows = await sqlRows<{ body: string }>(this.em, 'SELECT body FROM outbox_events WHERE id = $1 AND tenant_id = $2', [id, tenantId]);
    return rows.length === 0 ? null : new JsonText<EventEnvelope>(rows[0].body);
  }
}
