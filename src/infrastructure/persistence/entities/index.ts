// Every table of the schema, as MikroORM entities (decisions.md 183): the map of the schema the
// schema-drift test holds the migrations to, and what typed queries are built from.
import { ApiKeyCacheHolderEntity } from './api-key-cache-holder.entity';
import { ApiKeyEntity } from './api-key.entity';
import { BrandEntity } from './brand.entity';
import { EventFeedEntryEntity } from './event-feed-entry.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { OutboxEventEntity } from './outbox-event.entity';
import { OutboxUnpublishedEntity } from './outbox-unpublished.entity';
import { PageGroupCounterEntity } from './page-group-counter.entity';
import { PageGroupUtmSummaryEntity } from './page-group-utm-summary.entity';
import { PageGroupUtmValueEntity } from './page-group-utm-value.entity';
import { PageGroupEntity } from './page-group.entity';
import { PageSessionHourEntity } from './page-session-hour.entity';
import { PageSessionEntity } from './page-session.entity';
import { PageUtmRunningEntity } from './page-utm-running.entity';
import { PageUtmValueEntity } from './page-utm-value.entity';
import { PageVersionEntity } from './page-version.entity';
import { PageEntity } from './page.entity';
import { PortalSessionEntity } from './portal-session.entity';
import { TemplateEntity } from './template.entity';
import { TenantEntity } from './tenant.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookHistoryHoldEntity } from './webhook-history-hold.entity';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';

export const ENTITIES = [
  ApiKeyCacheHolderEntity,
  ApiKeyEntity,
  BrandEntity,
  EventFeedEntryEntity,
  IdempotencyKeyEntity,
  OutboxEventEntity,
  OutboxUnpublishedEntity,
  PageGroupCounterEntity,
  PageGroupUtmSummaryEntity,
  PageGroupUtmValueEntity,
  PageGroupEntity,
  PageSessionHourEntity,
  PageSessionEntity,
  PageUtmRunningEntity,
  PageUtmValueEntity,
  PageVersionEntity,
  PageEntity,
  PortalSessionEntity,
  TemplateEntity,
  TenantEntity,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookHistoryHoldEntity,
  WebhookSubscriptionEntity,
];
