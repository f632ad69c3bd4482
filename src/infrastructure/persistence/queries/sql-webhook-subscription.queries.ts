import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ListSlice, ListRequest, toSlice } from '../../../application/shared/pagination';
import { WebhookSubscriptionQueries } from '../../../application/webhook/webhook-subscription.queries';
import { DeliveryAttemptView, WebhookSubscriptionView } from '../../../application/webhook/webhook-subscription.view';
import { EventType } from '../../../domain/events/event-catalogue';
import { isoTimestamp } from '../sql';

@Injectable()
export class SqlWebhookSubscriptionQueries extends WebhookSubscriptionQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(tenantId: string, page: ListRequest): Promise<ListSlice<WebhookSubscriptionView>> {
    const rows = await this.em.execute<{ id: string; url: string; events: EventType[]; active: boolean; created_at: string; updated_at: string }[]>(
      `SELECT id, url, events, active, ${isoTimestamp('created_at')} AS created_at, ${isoTimestamp('updated_at')} AS updated_at
       FROM webhook_subscriptions WHERE tenant_id = ? AND deleted_at IS NULL ${page.after ? 'AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
      [tenantId, ...(page.after ? [page.after] : []), page.limit + 1],
    );
    const items = rows.map((r) => ({ id: r.id, url: r.url, events: r.events, active: r.active, createdAt: r.created_at, updatedAt: r.updated_at }));
    return toSlice(items, page.limit, (s) => s.id);
  }

  async attempts(tenantId: string, subscriptionId: string, page: ListRequest): Promise<ListSlice<DeliveryAttemptView>> {
    const rows = await this.em.execute<
      { id: string; delivery_id: string; event_id: string; event_type: string; attempt_number: number; status_code: number | null; duration_ms: number; error: string | null; next_attempt_at: string | null; created_at: string }[]
    >(
      `SELECT id, delivery_id, event_id, event_type, attempt_number, status_code, duration_ms, error,
         ${isoTimestamp('next_attempt_at')} AS next_attempt_at, ${isoTimestamp('created_at')} AS created_at
       FROM webhook_delivery_attempts WHERE subscription_id = ? AND tenant_id = ? ${page.after ? 'AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
      [subscriptionId, tenantId, ...(page.after ? [page.after] : []), page.limit + 1],
    );
    const items = rows.map((r) => ({
      id: r.id,
      deliveryId: r.delivery_id,
      eventId: r.event_id,
      eventType: r.event_type,
      attemptNumber: r.attempt_number,
      statusCode: r.status_code,
      durationMs: r.duration_ms,
      error: r.error,
      nextAttemptAt: r.next_attempt_at,
      createdAt: r.created_at,
    }));
    return toSlice(items, page.limit, (a) => a.id);
  }
}
