import { AuthenticateApiKey } from '../../application/api-key/authenticate-api-key.use-case';
import { CreateApiKey } from '../../application/api-key/create-api-key.use-case';
import { ListApiKeys } from '../../application/api-key/list-api-keys.use-case';
import { RevokeApiKey } from '../../application/api-key/revoke-api-key.use-case';
import { CreateBrand } from '../../application/brand/create-brand.use-case';
import { GetBrand } from '../../application/brand/get-brand.use-case';
import { ListBrands } from '../../application/brand/list-brands.use-case';
import { UpdateBrand } from '../../application/brand/update-brand.use-case';
import { CreatePage } from '../../application/page/create-page.use-case';
import { CreatePageVersion } from '../../application/page/create-page-version.use-case';
import { GetUtmParameters } from '../../application/page/get-utm-parameters.use-case';
import { ListPages } from '../../application/page/list-pages.use-case';
import { ReadEventFeed } from '../../application/event/read-event-feed.use-case';
import { ListEvents } from '../../application/event/list-events.use-case';
import { GetEvent } from '../../application/event/get-event.use-case';
import { GetPage } from '../../application/page/get-page.use-case';
import { ListPageVersions } from '../../application/page/list-page-versions.use-case';
import { GetPageStats } from '../../application/page/get-page-stats.use-case';
import { RecordSession } from '../../application/page/record-session.use-case';
import { CreatePageGroup } from '../../application/page-group/create-page-group.use-case';
import { DeletePageGroup } from '../../application/page-group/delete-page-group.use-case';
import { GetPageGroup } from '../../application/page-group/get-page-group.use-case';
import { ListPageGroups } from '../../application/page-group/list-page-groups.use-case';
import { SetPageGroupStatus } from '../../application/page-group/set-page-group-status.use-case';
import { SeedDemo } from '../../application/seed/seed-demo.use-case';
import { CreateSystemTemplate } from '../../application/template/create-system-template.use-case';
import { DuplicateTemplate } from '../../application/template/duplicate-template.use-case';
import { GetTemplate } from '../../application/template/get-template.use-case';
import { ListTemplates } from '../../application/template/list-templates.use-case';
import { CreateTenant } from '../../application/tenant/create-tenant.use-case';
import { CreateWebhookSubscription } from '../../application/webhook/subscriptions/create-webhook-subscription.use-case';
import { DeleteWebhookSubscription } from '../../application/webhook/subscriptions/delete-webhook-subscription.use-case';
import { GetWebhookSubscription } from '../../application/webhook/subscriptions/get-webhook-subscription.use-case';
import { ListDeliveryAttempts } from '../../application/webhook/subscriptions/list-delivery-attempts.use-case';
import { PortalFraming } from '../../application/portal/portal-framing.use-case';
import { SearchWebhookDeliveries } from '../../application/webhook/deliveries/search-webhook-deliveries.use-case';
import { GetWebhookDelivery } from '../../application/webhook/deliveries/get-webhook-delivery.use-case';
import { GetSubscriptionMetrics } from '../../application/webhook/deliveries/get-subscription-metrics.use-case';
import { ListWebhookSubscriptions } from '../../application/webhook/subscriptions/list-webhook-subscriptions.use-case';
import { RecoverDeliveries } from '../../application/webhook/subscriptions/recover-deliveries.use-case';
import { Redeliver } from '../../application/webhook/subscriptions/redeliver.use-case';
import { RotateSigningSecret } from '../../application/webhook/subscriptions/rotate-signing-secret.use-case';
import { SendTestEvent } from '../../application/webhook/subscriptions/send-test-event.use-case';
import { MakeHistoryDaysAhead } from '../../application/webhook/history/make-history-days-ahead.use-case';
import { UpdateWebhookSubscription } from '../../application/webhook/subscriptions/update-webhook-subscription.use-case';
import { OpenPortalSession } from '../../application/portal/open-portal-session.use-case';
import { GetPortalSession, ListPortalSessions, RevokePortalSession } from '../../application/portal/manage-portal-sessions.use-case';
import { AuthenticatePortalSession, ExchangePortalLink } from '../../application/portal/portal-access.use-case';

/** Every use case, for the composition roots to provide. */
export const USE_CASES = [
  MakeHistoryDaysAhead,
  AuthenticateApiKey,
  OpenPortalSession,
  ListPortalSessions,
  GetPortalSession,
  RevokePortalSession,
  ExchangePortalLink,
  AuthenticatePortalSession,
  CreateApiKey,
  ListApiKeys,
  RevokeApiKey,
  CreateTenant,
  CreateBrand,
  GetBrand,
  ListBrands,
  UpdateBrand,
  ListPageGroups,
  GetPageGroup,
  ListTemplates,
  GetTemplate,
  CreatePageGroup,
  SetPageGroupStatus,
  DeletePageGroup,
  ListPages,
  ListEvents,
  ReadEventFeed,
  GetEvent,
  GetPage,
  ListPageVersions,
  GetPageStats,
  CreatePage,
  CreatePageVersion,
  RecordSession,
  GetUtmParameters,
  CreateSystemTemplate,
  DuplicateTemplate,
  SeedDemo,
  CreateWebhookSubscription,
  UpdateWebhookSubscription,
  GetWebhookSubscription,
  ListWebhookSubscriptions,
  DeleteWebhookSubscription,
  ListDeliveryAttempts,
  SearchWebhookDeliveries,
  PortalFraming,
  GetWebhookDelivery,
  GetSubscriptionMetrics,
  Redeliver,
  RecoverDeliveries,
  RotateSigningSecret,
  SendTestEvent,
];
