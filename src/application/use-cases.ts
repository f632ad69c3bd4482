import { AuthenticateApiKey } from './api-key/authenticate-api-key.use-case';
import { CreateApiKey } from './api-key/create-api-key.use-case';
import { RevokeApiKey } from './api-key/revoke-api-key.use-case';
import { CreateBrand } from './brand/create-brand.use-case';
import { GetBrand } from './brand/get-brand.use-case';
import { ListBrands } from './brand/list-brands.use-case';
import { UpdateBrand } from './brand/update-brand.use-case';
import { CreatePage } from './page/create-page.use-case';
import { CreatePageVersion } from './page/create-page-version.use-case';
import { GetUtmParameters } from './page/get-utm-parameters.use-case';
import { ListPages } from './page/list-pages.use-case';
import { ListEvents } from './event/list-events.use-case';
import { GetEvent } from './event/get-event.use-case';
import { GetPage } from './page/get-page.use-case';
import { ListPageVersions } from './page/list-page-versions.use-case';
import { GetPageStats } from './page/get-page-stats.use-case';
import { RecordSession } from './page/record-session.use-case';
import { CreatePageGroup } from './page-group/create-page-group.use-case';
import { DeletePageGroup } from './page-group/delete-page-group.use-case';
import { GetPageGroup } from './page-group/get-page-group.use-case';
import { ListPageGroups } from './page-group/list-page-groups.use-case';
import { SetPageGroupStatus } from './page-group/set-page-group-status.use-case';
import { SeedDemo } from './seed/seed-demo.use-case';
import { CreateSystemTemplate } from './template/create-system-template.use-case';
import { DuplicateTemplate } from './template/duplicate-template.use-case';
import { GetTemplate } from './template/get-template.use-case';
import { ListTemplates } from './template/list-templates.use-case';
import { CreateTenant } from './tenant/create-tenant.use-case';
import { CreateWebhookSubscription } from './webhook/subscriptions/create-webhook-subscription.use-case';
import { DeleteWebhookSubscription } from './webhook/subscriptions/delete-webhook-subscription.use-case';
import { GetWebhookSubscription } from './webhook/subscriptions/get-webhook-subscription.use-case';
import { ListDeliveryAttempts } from './webhook/subscriptions/list-delivery-attempts.use-case';
import { ListWebhookSubscriptions } from './webhook/subscriptions/list-webhook-subscriptions.use-case';
import { RecoverDeliveries } from './webhook/subscriptions/recover-deliveries.use-case';
import { Redeliver } from './webhook/subscriptions/redeliver.use-case';
import { RotateSigningSecret } from './webhook/subscriptions/rotate-signing-secret.use-case';
import { SendTestEvent } from './webhook/subscriptions/send-test-event.use-case';
import { UpdateWebhookSubscription } from './webhook/subscriptions/update-webhook-subscription.use-case';

/** Every use case, for the composition roots to provide. */
export const USE_CASES = [
  AuthenticateApiKey,
  CreateApiKey,
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
  Redeliver,
  RecoverDeliveries,
  RotateSigningSecret,
  SendTestEvent,
];
