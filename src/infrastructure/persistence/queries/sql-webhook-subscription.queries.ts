import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { WebhookSubscriptionQueries } from '../../../application/webhook/subscriptions/webhook-subscription-queries.port';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import type { DeliveryOrdering } from '../../../domain/webhook/delivery-ordering';
import { toSubscriptionView, WebhookSubscriptionView } from '../../../domain/webhook/webhook-subscription.view';
import { DeliveryAttemptView, toDeliveryAttemptView } from '../../../application/webhook/subscriptions/delivery-attempt.view';
import { EventType } from '../../../domain/events/event-catalogue';
import { pageRows, sqlParams, sqlRows } from '../connection/sql-statement';
import { HEALTH_COLUMNS, HealthColumns, healthOf } from '../stored/webhook-subscription.row';

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

  async attempts(tenantId: string, subscriptionId: string, page: ListRequest): Promise<ListSlice<DeliveryAttemptView>> {
    const p = sqlParams();
    const rows = await sqlRows<{ id: string; delivery_id: string; event_id: string; event_type: string; attempt_number: number; status_code: number | null; duration_ms: number; error: string | null; next_attempt_at: string | null; created_at: string; trigger: 'scheduled' | 'manual'; redelivery_of: string | null }>(
      this.em,
      `SELECT id, delivery_id, event_id, event_type, attempt_number, status_code, duration_ms, error,
         next_attempt_at, created_at, trigger, redelivery_of
       FROM webhook_delivery_attempts WHERE subscription_id = ${p(subscriptionId)} AND tenant_id = ${p(tenantId)} ${page.after ? `AND id < ${p(page.after)}` : ''} ORDER BY id DESC LIMIT ${pageRows(page.limit)}`,
      p.values,
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
