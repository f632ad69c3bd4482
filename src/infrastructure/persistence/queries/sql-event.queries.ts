import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { EventEnvelope, EventQueries, FeedSlice } from '../../../application/event/event-queries.port';
import { JsonText } from '../../../application/shared/json-text';
import { ListRequest, ListSlice, mapSlice, toSlice } from '../../../application/shared/pagination';
import { LoggedEventType } from '../../../domain/events/event-catalogue';
import { ID_PREFIXES, typeIdLowerBound } from '../../../domain/shared/type-id';
import { pageRows } from '../connection/sql-statement';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { statementVariants, typedStatement } from '../typed/statement';

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
  const { statement, args } = eventList(tenantId, filter, page);
  return { text: statement.text, values: statement.values(args) };
}

type Filter = { type?: LoggedEventType; createdAfter?: Date };
/** Which optional parts a statement has: its filters, the cursor, and the page's rows (pageRows). */
type Variant = `${'type' | 'any'} ${'since' | 'ever'} ${'after' | 'first'} ${number}`;
const variantOf = (filter: Filter, after: boolean, rows: number): Variant =>
  `${filter.type ? 'type' : 'any'} ${filter.createdAfter ? 'since' : 'ever'} ${after ? 'after' : 'first'} ${rows}`;

type ListArgs = { tenantId: string; type: string; lowestId: string; createdAfter: Date; after: string };
const LIST = statementVariants((variant: Variant) => {
  const [type, since, from, rows] = variant.split(' ');
  return typedStatement<ListArgs>()((arg) =>
    schema
      .selectFrom('outbox_events')
      .select(['id', 'body'])
      .where('tenant_id', '=', arg('tenantId'))
      .$if(type === 'type', (qb) => qb.where('type', '=', arg('type')))
      .$if(since === 'since', (qb) => qb.where('id', '>=', arg('lowestId')).where('created_at', '>', arg('createdAfter')))
      .$if(from === 'after', (qb) => qb.where('id', '<', arg('after')))
      .orderBy('id', 'desc')
      .limit(sql.lit(Number(rows))),
  );
});

function eventList(tenantId: string, filter: Filter, page: ListRequest) {
  const args: ListArgs = {
    tenantId,
    type: filter.type ?? '',
    lowestId: filter.createdAfter ? typeIdLowerBound(ID_PREFIXES.event, filter.createdAfter.getTime() + 1) : '',
    createdAfter: filter.createdAfter ?? new Date(0),
    after: page.after ?? '',
  };
  return { statement: LIST(variantOf(filter, page.after !== undefined, pageRows(page.limit))), args };
}

// Through event_feed_position_idx (tenant_id, position): a position is given once an event is
// relayed, so an event not relayed yet is not in the feed (decisions.md 142, 151). The filters
// read the feed's narrow rows; only the page's bodies are read, each by its event's key.
type FeedArgs = { tenantId: string; position: number; type: string; createdAfter: Date };
const FEED = statementVariants((variant: Variant) => {
  const [type, since, , rows] = variant.split(' ');
  return typedStatement<FeedArgs>()((arg) =>
    schema
      .selectFrom(
        schema
          .selectFrom('event_feed')
          .select(['event_id', 'position'])
          .where('tenant_id', '=', arg('tenantId'))
          // A JS number stands for the bigint position (positions stay far below 2^53).
          .where('position', '>', sql<bigint>`${arg('position')}`)
          .$if(type === 'type', (qb) => qb.where('type', '=', arg('type')))
          .$if(since === 'since', (qb) => qb.where('created_at', '>', arg('createdAfter')))
          .orderBy('position')
          .limit(sql.lit(Number(rows)))
          .as('f'),
      )
      .innerJoinLateral(
        (eb) => eb.selectFrom('outbox_events as o').select('body').whereRef('o.id', '=', 'f.event_id').limit(sql.lit(1)).as('o'),
        (join) => join.onTrue(),
      )
      .select(['f.position', 'o.body'])
      .orderBy('f.position'),
  );
});

const FIND = typedStatement<{ id: string; tenantId: string }>()((arg) =>
  schema.selectFrom('outbox_events').select('body').where('id', '=', arg('id')).where('tenant_id', '=', arg('tenantId')),
);

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
    const { statement, args } = eventList(tenantId, filter, page);
    const rows = await statement.rows(this.em, args);
    return mapSlice(toSlice(rows, page.limit, (row) => row.id), (row) => new JsonText<EventEnvelope>(row.body));
  }

  async feed(tenantId: string, filter: { type?: LoggedEventType; createdAfter?: Date }, after: number, limit: number): Promise<FeedSlice> {
    const rows = await FEED(variantOf(filter, false, pageRows(limit))).rows(this.em, {
      tenantId, position: after, type: filter.type ?? '', createdAfter: filter.createdAfter ?? new Date(0),
    });
    const items = rows.slice(0, limit);
    return {
      items: items.map((row) => new JsonText<EventEnvelope>(row.body)),
      position: items.length === 0 ? after : Number(items[items.length - 1].position),
      hasMore: rows.length > limit,
    };
  }

  async findById(tenantId: string, id: string): Promise<JsonText<EventEnvelope> | null> {
    const [row] = await FIND.rows(this.em, { id, tenantId });
    return row ? new JsonText<EventEnvelope>(row.body) : null;
  }
}
