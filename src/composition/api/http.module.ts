import { PortalSessionsController } from '../../interfaces/http/portal/portal-sessions.controller';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { BrandsController } from '../../interfaces/http/brands/brands.controller';
import { ErrorFilter } from '../../interfaces/http/errors/error.filter';
import { ApiKeyGuard } from '../../interfaces/http/guards/api-key.guard';
import { BudgetAdmission } from '../../interfaces/http/guards/budget-admission';
import { RequestAuthentication } from '../../interfaces/http/guards/request-authentication';
import { RouteAuthorisation } from '../../interfaces/http/guards/route-authorisation';
import { HealthController } from '../../interfaces/http/health/health.controller';
import { PageGroupsController } from '../../interfaces/http/page-groups/page-groups.controller';
import { PagesController } from '../../interfaces/http/pages/pages.controller';
import { EventsController } from '../../interfaces/http/events/events.controller';
import { TemplatesController } from '../../interfaces/http/templates/templates.controller';
import { PortalPageController } from '../../interfaces/http/portal/portal-page.controller';
import { WebhookDeliveriesController } from '../../interfaces/http/deliveries/webhook-deliveries.controller';
import { SubscriptionMetricsController } from '../../interfaces/http/deliveries/subscription-metrics.controller';
import { WebhookSubscriptionsController } from '../../interfaces/http/webhooks/webhook-subscriptions.controller';
import { WebhookOperationsController } from '../../interfaces/http/webhooks/webhook-operations.controller';

@Module({
  controllers: [HealthController, BrandsController, PageGroupsController, PagesController, TemplatesController, WebhookSubscriptionsController, WebhookOperationsController, EventsController, PortalSessionsController, WebhookDeliveriesController, SubscriptionMetricsController, PortalPageController],
  providers: [
    RequestAuthentication,
    BudgetAdmission,
    RouteAuthorisation,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_FILTER, useClass: ErrorFilter },
  ],
})
export class HttpModule {}
