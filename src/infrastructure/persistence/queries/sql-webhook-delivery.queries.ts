import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { ListRequest, ListSlice, toSlice } from '../../../application/shared/pagination';
import { AttemptCounts, StoredDeliveryAttempt, WebhookDeliveryQueries } from '../../../application/webhook/deliveries/webhook-delivery-queries.port';
import { DeliverySearchCriteria, DeliveryStatus, WebhookDeliveryView } from '../../../application/webhook/deliveries/webhook-delivery.view';
import { ID_PREFIXES, typeIdLowerBound, typeIdTime } from '../../../domain/shared/type-id';
import { pageRows } from '../connection/sql-statement';
import { eventIdCeiling } from '../history/history-tables';
import { schema } from '../typed/database';
import { RowOf, statementVariants, typedStatement } from '../typed/statement';

const DELIVERY_COLUMNS = [
  'id', 'subscription_id', 'event_id', 'event_type', 'subject_id', 'status', 'manual_id', 'redelivery_of',
  'attempt_count', 'last_status_code', 'next_attempt_at', 'created_at', 'finished_at',
] as const;

type SearchArgs = { tenantId: string; eventBound: string; after: string; eventType: string; subscriptionId: string; subjectId: string; fromId: string; beforeId: string; only: readonly string[] };
type Narrowing = 'after' | 'type' | 'subscription' | 'subject' | 'from' | 'before' | 'only';

/**
 * One page of the delivery search, newest first by id (a delivery's id is made when it is: its time
 * is created_at). One fixed text for each set of criteria given; the status goes in as a literal,
 * so that a status other than delivered is proven to be in webhook_deliveries_undelivered_idx's
 * predicate. The time range is a range of ids. Every delivery made by the page's bound is of an
 * event made before it: `event_id` below that bound prunes the days after it (as the delivery log).
 */
const SEARCH = statementVariants((variant: `${number} ${DeliveryStatus | '*'} ${string}`) => {
  const [rows, status, given] = variant.split(' ');
  const has = (part: Narrowing) => given.split(',').includes(part);
  return typedStatement<SearchArgs>()((arg) =>
    schema
      .selectFrom('webhook_deliveries')
      .select(DELIVERY_COLUMNS)
      .where('tenant_id', '=', arg('tenantId'))
      .where('event_id', '<', arg('eventBound'))
      .$if(status !== '*', (qb) => qb.where('status', '=', sql.lit(status as DeliveryStatus)))
      .$if(has('type'), (qb) => qb.where('event_type', '=', arg('eventType')))
      .$if(has('subscription'), (qb) => qb.where('subscription_id', '=', arg('subscriptionId')))
      .$if(has('subject'), (qb) => qb.where('subject_id', '=', arg('subjectId')))
      .$if(has('only'), (qb) => qb.where('subscription_id', '=', sql<string>`any(${arg('only')}::text[])`))
      .$if(has('from'), (qb) => qb.where('id', '>=', arg('fromId')))
      .$if(has('before'), (qb) => qb.where('id', '<', arg('beforeId')))
      .$if(has('after'), (qb) => qb.where('id', '<', arg('after')))
      .orderBy('id', 'desc')
      // A constant, not a parameter (pageRows: the generic plan is kept).
      .limit(sql.lit(Number(rows))),
  );
});

/**
 * One delivery and its attempts in one statement, so one snapshot: read in two, an attempt could
 * be seen recorded while its delivery was read as before it. The attempts are in the delivery's
 * event's day, found by the (delivery, attempt number, event) key.
 */
const ONE = typedStatement<{ tenantId: string; deliveryId: string }>()((arg) =>
  schema
    .selectFrom('webhook_deliveries as d')
    .select(DELIVERY_COLUMNS.map((column) => `d.${column}` as const))
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('webhook_delivery_attempts as a')
          .select(['a.id', 'a.attempt_number', 'a.sent_at', 'a.created_at', 'a.duration_ms', 'a.status_code', 'a.error', 'a.response_excerpt', 'a.next_attempt_at'])
          .whereRef('a.delivery_id', '=', 'd.id')
          .whereRef('a.event_id', '=', 'd.event_id')
          .orderBy('a.attempt_number'),
      ).as('attempts'),
    )
    .where('d.id', '=', arg('deliveryId'))
    .where('d.tenant_id', '=', arg('tenantId')),
);

/** The hour an attempt was recorded in, in UTC whatever the session's time zone. */
const HOUR = sql<string>`date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00')`;

/**
 * A subscription's attempts in [from, to) by hour and in all (GROUPING SETS: one scan), read from
 * its (subscription_id, id) index as a range of ids; `event_id` below the window's end prunes the
 * days made ahead. Percentiles are nearest rank (percentile_disc): a duration some attempt took.
 */
const COUNTS = typedStatement<{ tenantId: string; subscriptionId: string; fromId: string; toId: string; eventBound: string }>()((arg) =>
  schema
    .selectFrom('webhook_delivery_attempts')
    .select([
      sql<string | null>`CASE WHEN grouping(${HOUR}) = 0 THEN ${HOUR} END`.as('hour'),
      sql<number>`count(*)::int`.as('attempts'),
      sql<number>`(count(*) FILTER (WHERE status_code BETWEEN 200 AND 299))::int`.as('succeeded'),
      sql<number | null>`percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms)`.as('p50'),
      sql<number | null>`percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms)`.as('p95'),
      sql<number | null>`percentile_disc(0.99) WITHIN GROUP (ORDER BY duration_ms)`.as('p99'),
    ])
    .where('subscription_id', '=', arg('subscriptionId'))
    .where('tenant_id', '=', arg('tenantId'))
    .where('id', '>=', arg('fromId'))
    .where('id', '<', arg('toId'))
    .where('event_id', '<', arg('eventBound'))
    .groupBy(sql`GROUPING SETS ((${HOUR}), ())`),
);

@Injectable()
export class SqlWebhookDeliveryQueries extends WebhookDeliveryQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async search(tenantId: string, criteria: DeliverySearchCriteria, page: ListRequest, now: Date): Promise<ListSlice<WebhookDeliveryView>> {
    const { statement, args } = searchStatement(tenantId, criteria, page, now);
    return toSlice((await statement.rows(this.em, args)).map(toDeliveryView), page.limit, (d) => d.id);
  }

  async one(tenantId: string, deliveryId: string): Promise<{ delivery: WebhookDeliveryView; attempts: StoredDeliveryAttempt[] } | null> {
    const [row] = await ONE.rows(this.em, { tenantId, deliveryId });
    if (row === undefined) return null;
    // Times inside the JSON come as PostgreSQL writes timestamps in JSON (ISO 8601 with an offset).
    const time = (value: unknown) => (value === null ? null : new Date(String(value)));
    return {
      delivery: toDeliveryView(row),
      attempts: row.attempts.map((a) => ({
        id: a.id,
        attemptNumber: a.attempt_number,
        sentAt: time(a.sent_at),
        createdAt: new Date(String(a.created_at)),
        durationMs: a.duration_ms,
        statusCode: a.status_code,
        error: a.error,
        responseExcerpt: a.response_excerpt,
        nextAttemptAt: time(a.next_attempt_at),
      })),
    };
  }

  async attemptCounts(tenantId: string, subscriptionId: string, from: Date, to: Date): Promise<AttemptCounts[]> {
    const rows = await COUNTS.rows(this.em, {
      tenantId,
      subscriptionId,
      fromId: typeIdLowerBound(ID_PREFIXES.deliveryAttempt, from.getTime()),
      toId: typeIdLowerBound(ID_PREFIXES.deliveryAttempt, to.getTime()),
      eventBound: eventIdCeiling(to.getTime()),
    });
    return rows.map((r) => ({ hour: r.hour === null ? null : new Date(r.hour), attempts: r.attempts, succeeded: r.succeeded, p50: r.p50, p95: r.p95, p99: r.p99 }));
  }
}

/** The search's statement and values for these criteria (exported for a test to EXPLAIN). */
export function searchStatement(tenantId: string, criteria: DeliverySearchCriteria, page: ListRequest, now: Date) {
  const bounds = [now.getTime()];
  if (criteria.createdBefore) bounds.push(criteria.createdBefore.getTime());
  const cursorTime = page.after ? typeIdTime(ID_PREFIXES.delivery, page.after) : null;
  if (cursorTime !== null) bounds.push(cursorTime);
  const given: Narrowing[] = [];
  if (page.after) given.push('after');
  if (criteria.eventType !== undefined) given.push('type');
  if (criteria.subscriptionId !== undefined) given.push('subscription');
  if (criteria.subjectId !== undefined) given.push('subject');
  if (criteria.createdFrom) given.push('from');
  if (criteria.createdBefore) given.push('before');
  if (criteria.onlySubscriptions) given.push('only');
  const statement = SEARCH(`${pageRows(page.limit)} ${criteria.status ?? '*'} ${given.join(',')}`);
  const args: SearchArgs = {
    tenantId,
    eventBound: eventIdCeiling(Math.min(...bounds)),
    after: page.after ?? '',
    eventType: criteria.eventType ?? '',
    subscriptionId: criteria.subscriptionId ?? '',
    subjectId: criteria.subjectId ?? '',
    fromId: criteria.createdFrom ? typeIdLowerBound(ID_PREFIXES.delivery, criteria.createdFrom.getTime()) : '',
    beforeId: criteria.createdBefore ? typeIdLowerBound(ID_PREFIXES.delivery, criteria.createdBefore.getTime()) : '',
    only: criteria.onlySubscriptions ?? [],
  };
  return { statement, args };
}

function toDeliveryView(r: Omit<RowOf<typeof ONE>, 'attempts'>): WebhookDeliveryView {
  return {
    id: r.id,
    subscriptionId: r.subscription_id,
    eventId: r.event_id,
    eventType: r.event_type,
    subjectId: r.subject_id,
    status: r.status,
    trigger: r.manual_id === null ? 'scheduled' : 'manual',
    redeliveryOf: r.redelivery_of,
    attemptCount: r.attempt_count,
    lastStatusCode: r.last_status_code,
    nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at).toISOString(),
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
  };
}
