import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { WebhookSubscriptionQueries } from '../../../application/webhook/subscriptions/webhook-subscription-queries.port';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { DeliveryAttemptView, toDeliveryAttemptView } from '../../../application/webhook/subscriptions/delivery-attempt.view';
import { ID_PREFIXES, typeIdTime } from '../../../domain/shared/type-id';
import { pageRows } from '../connection/sql-statement';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { statementVariants, typedStatement } from '../typed/statement';
import { eventIdCeiling } from '../history/history-tables';
import { HEALTH_COLUMNS, healthOf } from '../stored/webhook-subscription-columns';

/**
 * The statement of one page of a subscription's delivery log, newest attempt first. Attempts are
 * kept in their event's day (decisions.md 147), and an attempt is made after its event: every
 * attempt before the cursor (or made by now, on the first page) belongs to an event made before
 * it, so `event_id` below that bound prunes the days after it: the days made ahead always, and on
 * a page deep in the log every day after the page. The days before it are each read from the top
 * of their (subscription_id, id) index, a page at most (a redelivery of an old event is recorded
 * in the old event's day, so any retained day may hold the newest attempt).
 */
function deliveryLog(tenantId: string, subscriptionId: string, page: ListRequest, now: Date) {
  const madeBy = (page.after ? typeIdTime(ID_PREFIXES.deliveryAttempt, page.after) : null) ?? now.getTime();
  const statement = DELIVERY_LOG(`${pageRows(page.limit)} ${page.after ? 'after' : 'first'}`);
  return { statement, args: { subscriptionId, tenantId, eventBound: eventIdCeiling(madeBy), after: page.after ?? '' } };
}

/** The delivery log's statement text and values, for a test to EXPLAIN. */
export function deliveryLogStatement(tenantId: string, subscriptionId: string, page: ListRequest, now: Date): { text: string; values: unknown[] } {
  const { statement, args } = deliveryLog(tenantId, subscriptionId, page, now);
  return { text: statement.text, values: statement.values(args) };
}

type LogArgs = { subscriptionId: string; tenantId: string; eventBound: string; after: string };
const DELIVERY_LOG = statementVariants((variant: `${number} ${'after' | 'first'}`) => {
  const [rows, from] = variant.split(' ');
  return typedStatement<LogArgs>()((arg) =>
    schema
      .selectFrom('webhook_delivery_attempts')
      .select(['id', 'delivery_id', 'event_id', 'event_type', 'attempt_number', 'status_code', 'duration_ms', 'error', 'next_attempt_at', 'created_at', 'trigger', 'redelivery_of'])
      .where('subscription_id', '=', arg('subscriptionId'))
      .where('tenant_id', '=', arg('tenantId'))
      .where('event_id', '<', arg('eventBound'))
      .$if(from === 'after', (qb) => qb.where('id', '<', arg('after')))
      .orderBy('id', 'desc')
      // A constant, not a parameter (pageRows: the generic plan is kept).
      .limit(sql.lit(Number(rows))),
  );
});

const LIST = statementVariants((variant: `${'after' | 'first'} ${'only' | 'all'}`) =>
  typedStatement<{ tenantId: string; after: string; limit: number; only: readonly string[] }>()((arg) =>
    schema
      .selectFrom('webhook_subscriptions')
      .select(['id', 'url', 'events', 'active', 'rate_limit_per_second', 'delivery_filter', 'ordering', 'created_at', 'updated_at', ...HEALTH_COLUMNS])
      .where('tenant_id', '=', arg('tenantId'))
      .where('deleted_at', 'is', null)
      .$if(variant.startsWith('after'), (qb) => qb.where('id', '<', arg('after')))
      .$if(variant.endsWith('only'), (qb) => qb.where('id', '=', sql<string>`any(${arg('only')}::text[])`))
      .orderBy('id', 'desc')
      .limit(arg('limit')),
  ),
);

@Injectable()
export class SqlWebhookSubscriptionQueries extends WebhookSubscriptionQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, page: ListRequest, only: readonly string[] | null = null): Promise<ListSlice<WebhookSubscriptionView>> {
    const variant = `${page.after ? 'after' : 'first'} ${only === null ? 'all' : 'only'}` as const;
    const rows = await LIST(variant).rows(this.em, { tenantId, after: page.after ?? '', limit: page.limit + 1, only: only ?? [] });
    const items = rows.map((r) =>
      toSubscriptionView({ id: r.id, url: r.url, events: r.events, active: r.active, rateLimitPerSecond: r.rate_limit_per_second, filter: r.delivery_filter as DeliveryFilter | null, ordering: r.ordering, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), health: healthOf(r) }),
    );
    return toSlice(items, page.limit, (s) => s.id);
  }

  async attempts(tenantId: string, subscriptionId: string, page: ListRequest, now: Date): Promise<ListSlice<DeliveryAttemptView>> {
    const { statement, args } = deliveryLog(tenantId, subscriptionId, page, now);
    const rows = await statement.rows(this.em, args);
    const items = rows.map((r) =>
      toDeliveryAttemptView({
      id: r.id,
      deliveryId: r.delivery_id,
      trigger: r.trigger,
      redeliveryOf: r.redelivery_of,
      eventId: r.event_id,
      eventType: r.event_type,
      attemptNumber: r.attempt_number,
      statusCode: r.status_code,
      durationMs: r.duration_ms,
      error: r.error,
      nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at),
      createdAt: new Date(r.created_at),
      }),
    );
    return toSlice(items, page.limit, (a) => a.id);
  }
}
