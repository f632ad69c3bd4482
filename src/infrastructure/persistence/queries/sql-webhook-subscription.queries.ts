import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { WebhookSubscriptionQueries } from '../../../application/webhook/subscriptions/webhook-subscription-queries.port';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import type { DeliveryOrdering } from '../../../domain/webhook/delivery-ordering';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { DeliveryAttemptView, toDeliveryAttemptView } from '../../../application/webhook/subscriptions/delivery-attempt.view';
import { EventType } from '../../../domain/events/event-catalogue';
import { ID_PREFIXES, typeIdTime } from '../../../domain/shared/type-id';
import { pageRows, sqlParams, sqlRows } from '../connection/sql-statement';
import { eventIdCeiling } from '../history/history-tables';
import { HEALTH_COLUMNS, HealthColumns, healthOf } from '../stored/webhook-subscription.row';

/**
 * The statement of one page of a subscription's delivery log, newest attempt first. Attempts are
 * kept in their event's day (decisions.md 147), and an attempt is made after its event: every
 * attempt before the cursor (or made by now, on the first page) belongs to an event made before
 * it, so `event_id` below that bound prunes the days after it: the days made ahead always, and on
 * a page deep in the log every day after the page. The days before it are each read from the top
 * of their (subscription_id, id) index, a page at most (a redelivery of an old event is recorded
 * in the old event's day, so any retained day may hold the newest attempt).
 */
export function deliveryLogStatement(tenantId: string, subscriptionId: string, page: ListRequest, now: Date): { text: string; values: unknown[] } {
  const p = sqlParams();
  const madeBy = (page.after ? typeIdTime(ID_PREFIXES.deliveryAttempt, page.after) : null) ?? now.getTime();
  const where = [`subscription_id = ${p(subscriptionId)}`, `tenant_id = ${p(tenantId)}`, `event_id < ${p(eventIdCeiling(madeBy))}`];
  if (page.after) where.push(`id < ${p(page.after)}`);
  return {
    text: `SELECT id, delivery_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at, created_at, trigger, redelivery_of
       FROM webhook_delivery_attempts WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${pageRows(page.limit)}`,
    values: p.values,
  };
}

@Injectable()
export class SqlWebhookSubscriptionQueries extends WebhookSubscriptionQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, page: ListRequest): Promise<ListSlice<WebhookSubscriptionView>> {
    const p = sqlParams();
    const rows = await sqlRows<{ id: string; url: string; events: EventType[]; active: boolean; rate_limit_per_second: number | null; delivery_filter: DeliveryFilter | null; ordering: DeliveryOrdering; created_at: string; updated_at: string } & HealthColumns>(
      this.em,
      `SELECT id, url, events, active, rate_limit_per_second, delivery_filter, ordering, created_at, updated_at,
         ${HEALTH_COLUMNS}
       FROM webhook_subscriptions WHERE tenant_id = ${p(tenantId)} AND deleted_at IS NULL ${page.after ? `AND id < ${p(page.after)}` : ''} ORDER BY id DESC LIMIT ${p(page.limit + 1)}`,
      p.values,
    );
    const items = rows.map((r) =>
      toSubscriptionView({ id: r.id, url: r.url, events: r.events, active: r.active, rateLimitPerSecond: r.rate_limit_per_second, filter: r.delivery_filter, ordering: r.ordering, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), health: healthOf(r) }),
    );
    return toSlice(items, page.limit, (s) => s.id);
  }

  async attempts(tenantId: string, subscriptionId: string, page: ListRequest, now: Date): Promise<ListSlice<DeliveryAttemptView>> {
    const statement = deliveryLogStatement(tenantId, subscriptionId, page, now);
    const rows = await sqlRows<{ id: string; delivery_id: string; event_id: string; event_type: string; attempt_number: number; status_code: number | null; duration_ms: number; error: string | null; next_attempt_at: string | null; created_at: string; trigger: 'scheduled' | 'manual'; redelivery_of: string | null }>(
      this.em,
      statement.text,
      statement.values,
    );
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
